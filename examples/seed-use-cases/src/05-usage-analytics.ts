// Seed use case 5, tool usage analytics: count calls, time them, count failures, per tool.
// The seed stores the start time in tool_input['_start_time'], so the tool receives an argument it never asked
// for; the analytics pack keeps it in ctx.state, counts blocked calls and cache hits too, and adds percentiles.
import { defineTool, ToolHooks } from "@toolware/core";
import { type AnalyticsSnapshot, analytics } from "@toolware/packs/analytics";

export interface UsageAnalyticsSummary {
  readonly stats: AnalyticsSnapshot;
  /** What the tools received: never a start time. */
  readonly inputsSeen: readonly object[];
}

export async function main(log: (line: string) => void = console.log): Promise<UsageAnalyticsSummary> {
  // A hand-driven clock: each tool "takes" the time it says, so the numbers below are exact.
  let clock = 0;
  const inputsSeen: object[] = [];
  const search = defineTool({
    name: "web_search",
    execute: ({ query, ms }: { query: string; ms: number }) => {
      inputsSeen.push({ query, ms });
      clock += ms;
      return `results for ${query}`;
    },
  });
  const scrape = defineTool({
    name: "scrape_page",
    execute: ({ url }: { url: string }) => {
      inputsSeen.push({ url });
      clock += 250;
      if (url.includes("broken")) throw new Error("HTTP 500");
      return `<html>${url}</html>`;
    },
  });

  const hooks = new ToolHooks();
  const usage = analytics({
    now: () => clock,
    // Like the seed's print after each call.
    onCall: ({ toolName, status, durationMs }) => {
      const s = usage.stats().tools[toolName];
      log(
        `📊 ${toolName}: ${status}${durationMs === undefined ? "" : ` in ${durationMs} ms`} — executions ${s?.count}, avg ${s?.duration?.meanMs.toFixed(0) ?? "-"} ms, failures ${s?.failures}`,
      );
    },
  });
  hooks.use(usage);
  // A guard inside the analytics pack (lower priority): its blocks are counted too.
  hooks.before(
    (ctx) => !String((ctx.toolInput as { url?: string }).url ?? "").startsWith("file:") || ctx.block("local files"),
  );

  for (const ms of [120, 80, 300, 95, 110]) await hooks.invoke(search, { query: `q${ms}`, ms });
  await hooks.invoke(scrape, { url: "https://example.com" });
  await hooks.invoke(scrape, { url: "https://example.com/broken" });
  await hooks.invoke(scrape, { url: "file:///etc/passwd" });

  const stats = usage.stats();
  for (const [tool, s] of Object.entries(stats.tools)) {
    const d = s.duration;
    log(
      `${tool}: ${s.count} calls (${s.ok} ok, ${s.failures} failed, ${s.blocked} blocked); ` +
        (d === null ? "not timed" : `mean ${d.meanMs} ms, p50 ${d.p50Ms} ms, p95 ${d.p95Ms} ms, p99 ${d.p99Ms} ms`),
    );
  }
  log(`total: ${stats.totals.count} calls, ${stats.totals.failures} failed, ${stats.totals.blocked} blocked`);
  return { stats, inputsSeen };
}
