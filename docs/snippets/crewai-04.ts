// snippet: crewai-04.ts
import { defaultToolHooks, defineTool, registerBeforeToolCallHook, type ToolCallHookContext } from "@toolware/core";

function logToolCall(context: ToolCallHookContext) {
  console.log(`Tool: ${context.toolName}`);
  console.log(`Input: ${JSON.stringify(context.toolInput)}`);
  return undefined; // allow execution
}

registerBeforeToolCallHook(logToolCall);

// "Global" means the process-wide defaultToolHooks instance: calls run through it.
const search = defineTool({ name: "web_search", execute: () => "results" });
await defaultToolHooks.invoke(search, { query: "toolware" });
// Tool: web_search
// Input: {"query":"toolware"}
