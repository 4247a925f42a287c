// snippet: crewai-05.ts
import { afterToolCall, beforeToolCall, defaultToolHooks, defineTool } from "@toolware/core";

// A free function cannot carry a decorator in TypeScript: call the decorator on it.
// It registers the function on defaultToolHooks and returns it unchanged.
export const blockDangerousTools = beforeToolCall(function blockDangerousTools(context) {
  const dangerousTools = ["delete_database", "drop_table", "rm_rf"];
  if (dangerousTools.includes(context.toolName)) {
    console.log(`⛔ Blocked dangerous tool: ${context.toolName}`);
    return false; // block execution
  }
  return undefined;
});

export const sanitizeResults = afterToolCall(function sanitizeResults(context) {
  if (context.toolResult?.toLowerCase().includes("password")) {
    return context.toolResult.replaceAll("password", "[REDACTED]");
  }
  return undefined;
});

const dropTable = defineTool({ name: "drop_table", execute: () => "dropped" });
const readConfig = defineTool({ name: "read_config", execute: () => "password=hunter2" });
console.log((await defaultToolHooks.invoke(dropTable, {})).status); // ⛔ Blocked dangerous tool: drop_table, then: blocked
console.log((await defaultToolHooks.invoke(readConfig, {})).result); // [REDACTED]=hunter2
