// snippet: packs-analytics-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";

const search = defineTool({
  name: "web_search",
  execute: async ({ query }: { query: string }) => `results for ${query}`,
});

const hooks = new ToolHooks();
const usage = analytics();
hooks.use(usage);

await hooks.invoke(search, { query: "toolware" });
await hooks.invoke(search, { query: "tool-call hooks" });

const { tools, totals } = usage.stats();
const s = tools.web_search!;
console.log(`${s.count} calls, ${s.failures} failures, ${s.blocked} blocked, p95 ${s.duration?.p95Ms.toFixed(1)} ms`);
// "2 calls, 0 failures, 0 blocked, p95 0.7 ms" (the time varies from run to run)
console.log(`all tools: ${totals.count} calls`); // "all tools: 2 calls"
