// snippet: packs-guardrails-1.ts
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";

const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });
const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });
const webSearch = defineTool({ name: "web_search", execute: () => "results" });

const hooks = new ToolHooks();
const rails = guardrails({
  deny: ["delete_file", "drop_table", "remove_user", "system_shutdown", { tag: "destructive" }],
  warn: ["send_email", "post_to_social_media", "charge_payment"],
  byRole: { junior_agent: { deny: ["delete_file", "send_email"] } },
  rules: [
    {
      name: "sensitive-task",
      when: (ctx) => ctx.task?.description.toLowerCase().includes("sensitive") ?? false,
      deny: ["web_search"],
    },
  ],
  onWarn: (w) => console.warn(w.message),
});
hooks.use(rails);

const junior = new Agent({ role: "junior_agent" });
const out = await hooks.invoke(deleteFile, { path: "a.txt" });
console.log(out.status, out.reason); // "blocked" "delete_file is on the deny list (delete_file)"
console.log((await hooks.invoke(sendEmail, {}, { agent: junior })).reason);
// "send_email is on the deny list of role junior_agent (send_email)"
const memo = new Task({ description: "Review the sensitive memo" });
console.log((await hooks.invoke(webSearch, {}, { task: memo })).reason);
// "web_search is on the deny list of rule sensitive-task (web_search)"

// check() answers without running anything (rules, which need a live call, are not consulted).
console.log(rails.check({ toolName: "Delete File" }).allowed); // false
