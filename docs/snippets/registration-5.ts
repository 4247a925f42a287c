// snippet: registration-5.ts
import { afterToolCall, beforeToolCall, ToolHooks } from "@toolware/core";

// On a function: registers it on `defaultToolHooks` and returns it unchanged.
export const blockDangerousTools = beforeToolCall(function blockDangerousTools(ctx) {
  if (["delete_database", "drop_table", "rm_rf"].includes(ctx.toolName)) {
    console.log(`⛔ Blocked dangerous tool: ${ctx.toolName}`);
    return false;
  }
  return undefined;
});

export const sanitizeResults = afterToolCall(function sanitizeResults(ctx) {
  if (ctx.toolResult?.toLowerCase().includes("password")) return ctx.toolResult.replace(/password/gi, "[REDACTED]");
  return undefined;
});

// With options (every hook option, plus `hooks` to register on another instance).
const app = new ToolHooks();
export const onlyDatabaseTools = beforeToolCall({ tools: ["db_*"], priority: 5, hooks: app })(
  function onlyDatabaseTools(ctx) {
    if (ctx.toolInput.table === "users") return false;
  },
);
