// snippet: hooks-1.ts
import { type BeforeToolCallHookType, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });

// Exactly `false` blocks; true, undefined, null, 0 and "" let the call through.
const noDatabaseDrops: BeforeToolCallHookType = (ctx) => !["drop_table", "delete_database"].includes(ctx.toolName);
hooks.before(noDatabaseDrops, { name: "noDatabaseDrops" });

// ctx.block(reason) blocks too, and the reason reaches the agent, the outcome and the trace.
hooks.before(function businessHours(ctx) {
  const hour = new Date().getHours();
  if (ctx.toolName === "send_email" && (hour < 8 || hour >= 20)) ctx.block("emails go out between 8:00 and 20:00");
});

// Async hooks are awaited; a promise of `false` blocks like `false`.
hooks.before(async function quotaLeft(ctx) {
  const used = await Promise.resolve(12); // e.g. a database lookup
  return ctx.toolName !== "send_email" || used < 100;
});

const outcome = await hooks.invoke(sendEmail, {});
console.log(outcome.status); // "ok" during business hours, else "blocked" with outcome.reason set
