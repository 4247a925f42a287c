// snippet: performance-1.ts
import { defineTool, ToolHooks } from "@toolware/core";

const search = defineTool({
  name: "web_search",
  execute: async ({ query }: { query: string }) => `results for ${query}`,
});

// Per-hook durations are opt-in: two clock reads per hook and a fresh trace entry each time.
const profiled = new ToolHooks({ timing: true });
profiled.before(function checkQuery(ctx) {
  return typeof ctx.toolInput.query === "string";
});
profiled.use(async function audit(_ctx, next) {
  await next();
});

const outcome = await profiled.invoke(search, { query: "onions" });
for (const entry of outcome.trace) console.log(`${entry.hook} ${entry.phase} ${entry.durationMs?.toFixed(3)} ms`);

// What a call of web_search runs, without running it: hooks whose predicate decides per call are `conditional`.
console.log(
  profiled.explain({ toolName: "web_search" }).map((h) => `${h.kind} ${h.name} conditional=${h.conditional}`),
);
