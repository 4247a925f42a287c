// snippet: best-practices-1.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const dropTable = defineTool({ name: "drop_table", destructive: true, execute: () => "dropped" });

// One job per hook, with a name: the name is what the trace, explain() and error messages show.
hooks.before(function noProdChanges(ctx) {
  // Say why, in words the agent can act on: the reason reaches the agent, the outcome, the trace and the logs.
  if (ctx.toolInput.env === "prod" && ctx.tool.destructive) {
    ctx.block("destructive tools cannot touch prod; run it against staging");
  }
});
hooks.before(function requireTicket(ctx) {
  if (ctx.tool.destructive && typeof ctx.toolInput.ticket !== "string") ctx.block("destructive calls need a ticket id");
});

// Log decisions once, for every hook, where they happen: the events carry the whole outcome.
hooks.on("call:blocked", ({ ctx, reason, outcome }) => {
  const by = outcome.trace.find((t) => t.action === "blocked" || t.action === "failed");
  console.warn(`[${ctx.callId}] ${ctx.toolName} blocked by ${by?.hook}: ${reason ?? "no reason"}`);
});
hooks.on("hook:error", ({ hook, phase, policy, error }) =>
  console.error(`${hook.name} failed (${phase}, ${policy})`, error),
);

await hooks.invoke(dropTable, { env: "prod", table: "users" });
// [… ] drop_table blocked by noProdChanges: destructive tools cannot touch prod; run it against staging
await hooks.invoke(dropTable, { env: "staging", table: "users" });
// [… ] drop_table blocked by requireTicket: destructive calls need a ticket id
