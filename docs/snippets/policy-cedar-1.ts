// snippet: policy-cedar-1.ts
import { compileCedar } from "@toolware/policy";

const engine = await compileCedar({
  file: "toolware.cedar",
  policies: `
@id("juniors-cannot-delete") @reason("junior agents cannot delete files")
forbid(principal == Agent::"junior", action, resource == Tool::"delete_file");

@id("ask-before-mail") @reason("a person reads every email first") @requireApproval
permit(principal in Crew::"support", action, resource in Tag::"mail");

@id("srv-only")
permit(principal, action, resource == Tool::"write_file") when { context has path && context.path like "/srv/*" };
`,
});

engine.decide({ tool: "delete_file", agent: "junior", args: { path: "notes.txt" } });
// { effect: "deny", policies: ["juniors-cannot-delete"], reason: "junior agents cannot delete files" }
engine.decide({ tool: "send_email", agent: "helper", crew: "support", tags: ["mail"], args: { to: "a@b.c" } });
// { effect: "approve", policies: ["ask-before-mail"], reason: "a person reads every email first" }
engine.decide({ tool: "write_file", agent: "writer", args: { path: "/srv/report.txt" } });
// { effect: "allow", policies: ["srv-only"] }
engine.decide({ tool: "write_file", agent: "writer", args: { path: 42 } });
// { effect: "deny", policies: ["srv-only"], reason: "Cedar could not decide this call (policies srv-only): …" }
engine.covers("read_file"); // false: no policy can apply to read_file, so its calls never reach Cedar
