// snippet: policy-quick-start.ts
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";

const hooks = new ToolHooks();
const policy = await loadPolicy("toolware.policy.yaml", {
  // Who is calling, for `match.callers` and `caller` in conditions (the MCP session, an API key's owner, …).
  caller: (ctx) => ctx.framework?.name,
});
hooks.use(policy); // the same ToolHooks every adapter takes: guardTools, guardServer, guardedClient, …

policy.explain({ tool: "delete_file", agent: "junior_agent" });
// { effect: "deny", rule: "juniors-cannot-delete", reason: "junior agents cannot delete files", matched: [...], ... }
policy.counters().rules["juniors-cannot-delete"];
// { matched: 1, denied: 1, asked: 0, approved: 0, shadowDenied: 0, shadowAsked: 0 }
