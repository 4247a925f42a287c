// snippet: crewai-11.ts
import { afterToolCall, beforeToolCall, defaultToolHooks, defineTool } from "@toolware/core";

// The seed keeps the start time in tool_input['_start_time'], so the tool receives an argument it never declared.
// ctx.state belongs to the call and never reaches the tool; declare its fields once, typed everywhere.
declare module "@toolware/core" {
  interface ToolCallState {
    toolStartTime?: number;
  }
}

const toolStats = new Map<string, { count: number; totalTime: number; failures: number }>();

beforeToolCall(function startTimer(context) {
  context.state.toolStartTime = performance.now();
  return undefined;
});

afterToolCall(function trackToolUsage(context) {
  const startTime = context.state.toolStartTime ?? performance.now();
  const duration = (performance.now() - startTime) / 1000;

  const stats = toolStats.get(context.toolName) ?? { count: 0, totalTime: 0, failures: 0 };
  stats.count += 1;
  stats.totalTime += duration;
  // The seed searches the result text for "error"; the status says it exactly.
  if (context.status !== "ok") stats.failures += 1;
  toolStats.set(context.toolName, stats);

  console.log(`
    📊 Tool Stats for ${context.toolName}:
    - Executions: ${stats.count}
    - Avg Time: ${(stats.totalTime / stats.count).toFixed(2)}s
    - Failures: ${stats.failures}
    `);
  return undefined;
});

const search = defineTool({ name: "web_search", execute: () => "results" });
await defaultToolHooks.invoke(search, {});
// 📊 Tool Stats for web_search:
// - Executions: 1
// - Avg Time: 0.00s
// - Failures: 0
