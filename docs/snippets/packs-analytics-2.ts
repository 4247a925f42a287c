// snippet: packs-analytics-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { type AnalyticsSnapshot, analytics } from "@toolware/packs/analytics";

// A fake clock the tool moves forward, so the durations below are exact.
let now = 0;
const fetchPage = defineTool({
  name: "fetch_page",
  execute: async ({ url, ms }: { url: string; ms: number }) => {
    now += ms;
    if (url.endsWith("/404")) throw new Error(`GET ${url} returned 404`);
    return `<html>${url}</html>`;
  },
});

const hooks = new ToolHooks();
const usage = analytics({ now: () => now });
hooks.use(usage);
// Inside the pack (priority 0 < 1000): a guard and a stand-in for a cache, so that every outcome shows up.
hooks.before((ctx) => (ctx.toolInput.url === "https://intranet" ? ctx.block("no intranet pages") : undefined));
hooks.use(async (ctx, next) => (ctx.toolInput.url === "https://cached" ? ctx.respond("<html>cached</html>") : next()));

for (const [url, ms] of [
  ["https://a", 20],
  ["https://b", 40],
  ["https://b/404", 30], // the tool throws
  ["https://intranet", 0], // blocked
  ["https://cached", 0], // answered without running the tool
] as const) {
  await hooks.invoke(fetchPage, { url, ms });
}

const snapshot: AnalyticsSnapshot = usage.stats(); // a copy: later calls do not change it
console.log(snapshot.tools.fetch_page); // per tool name:
// {
//   count: 5,        every call the pack saw end
//   ok: 3,           status "ok", substituted results included
//   failures: 1,     status "error": the tool threw
//   blocked: 1,      status "blocked", by any hook inside the pack (or a failing fail-closed hook)
//   substituted: 1,  "ok" without running the tool: ctx.respond() (cache hits, dedupe followers)
//   duration: {      null until a call was timed; blocked calls are not timed
//     count: 4,      timed calls
//     meanMs: 22.5, minMs: 0, maxMs: 40, totalMs: 90,  exact, over every timed call
//     p50Ms: 20, p95Ms: 40, p99Ms: 40,  exact nearest rank, over the last `sampleSize` timed calls
//     samples: 4     how many durations the percentiles use (≤ sampleSize)
//   }
// }
console.log(snapshot.totals.count); // 5: `totals` has the same shape, for all tools together

usage.reset();
console.log(usage.stats().totals); // { count: 0, ok: 0, failures: 0, blocked: 0, substituted: 0, duration: null }
