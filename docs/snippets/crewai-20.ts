// snippet: crewai-20.ts
import { beforeToolCall, defaultToolHooks, defineTool, type ToolCallHookContext } from "@toolware/core";

const toolCallChain: { tool: string; timestamp: number; agent: string }[] = [];

beforeToolCall(function trackToolChain(context: ToolCallHookContext) {
  toolCallChain.push({
    tool: context.toolName,
    timestamp: Date.now() / 1000,
    agent: context.agent ? context.agent.role : "Unknown",
  });

  // Detect potential infinite loops
  const recentCalls = toolCallChain.slice(-5);
  if (recentCalls.length === 5 && recentCalls.every((c) => c.tool === context.toolName)) {
    console.log(`⚠️  Warning: ${context.toolName} called 5 times in a row`);
  }

  return undefined;
});

const search = defineTool({ name: "web_search", execute: () => "results" });
for (let i = 0; i < 5; i++) await defaultToolHooks.invoke(search, {}); // ⚠️  Warning: web_search called 5 times in a row
