// snippet: context-3.ts
import { defineTool, ToolHooks } from "@toolware/core";

// Declare what your hooks keep in ctx.state once, and it is typed in every hook. Use a key of your
// own (here `usage`): the interface is shared by every pack and app in the program.
declare module "@toolware/core" {
  interface ToolCallState {
    usage?: { startedAt: number };
  }
}

const stats = new Map<string, { count: number; totalMs: number; failures: number }>();
const hooks = new ToolHooks();

// The seed's usage analytics kept the start time in tool_input, where the tool received it too.
// ctx.state belongs to the call: the tool never sees it, and concurrent calls do not share it.
hooks.before(function startTimer(ctx) {
  ctx.state.usage = { startedAt: performance.now() };
});
hooks.after(function trackToolUsage(ctx) {
  const startedAt = ctx.state.usage?.startedAt;
  if (startedAt === undefined) return; // the call was blocked before startTimer ran
  const s = stats.get(ctx.toolName) ?? { count: 0, totalMs: 0, failures: 0 };
  s.count++;
  s.totalMs += performance.now() - startedAt;
  if (ctx.status !== "ok") s.failures++;
  stats.set(ctx.toolName, s);
});

const search = defineTool({ name: "web_search", execute: () => "results" });
await Promise.all([hooks.invoke(search, {}), hooks.invoke(search, {})]);
console.log(stats.get("web_search")?.count); // 2
