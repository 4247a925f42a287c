// Policy files the policy commands' tests share.

/** A valid policy: rules on names, agents, a CEL condition, an approval, packs only. */
export const POLICY = `version: 1
name: crew-policy
default: allow
rules:
  - name: juniors-cannot-delete
    match: { tools: [delete_file, "fs_*"], agents: [junior] }
    decide: deny
    reason: junior agents cannot delete files
  - name: no-paths-outside-work
    match: { tools: [write_file], when: 'args.path.contains("..")' }
    decide: deny
    reason: paths must stay inside the work folder
  - name: ask-before-email
    match: { tools: [send_email] }
    decide: approve
  - name: everything
    packs:
      redact: {}
      rate-limit: { max: 30, per: 1m, key: tool+agent }
`;

/** Cedar policies for a `cedar.file`. */
export const CEDAR = `@id("no-rm-for-juniors")
@reason("juniors cannot remove files")
forbid(principal == Agent::"junior", action, resource == Tool::"rm");

@id("reads")
permit(principal, action, resource == Tool::"read_file");
`;
