// snippet: crewai-14.ts
import { Agent, afterToolCall, beforeToolCall, defaultToolHooks, defineTool, Task } from "@toolware/core";

beforeToolCall(function debugToolCall(context) {
  console.log(`
    🔍 Tool Call Debug:
    - Tool: ${context.toolName}
    - Agent: ${context.agent ? context.agent.role : "Unknown"}
    - Task: ${context.task ? context.task.description.slice(0, 50) : "Unknown"}...
    - Input: ${JSON.stringify(context.toolInput)}
    `);
  return undefined;
});

afterToolCall(function debugToolResult(context) {
  if (context.toolResult) {
    const resultPreview = context.toolResult.slice(0, 200);
    console.log(`✅ Result Preview: ${resultPreview}...`);
  } else {
    console.log("⚠️  No result returned");
  }
  return undefined;
});

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
const agent = new Agent({ role: "researcher" });
const task = new Task({ description: "Find recent papers on tool-call hooks for agents" });
await defaultToolHooks.invoke(search, { query: "tool hooks" }, { agent, task });
// 🔍 Tool Call Debug:
// - Tool: web_search
// - Agent: researcher
// - Task: Find recent papers on tool-call hooks for agents...
// - Input: {"query":"tool hooks"}
// ✅ Result Preview: results for tool hooks...
