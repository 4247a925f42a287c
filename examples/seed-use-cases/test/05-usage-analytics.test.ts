import { describe, expect, it } from "vitest";
import { main } from "../src/05-usage-analytics.js";

describe("05 usage analytics", () => {
  it("counts, times and classifies every call without touching the tools' inputs", async () => {
    const lines: string[] = [];
    const { stats, inputsSeen } = await main((line) => lines.push(line));
    expect(stats.tools.web_search).toEqual({
      count: 5,
      ok: 5,
      failures: 0,
      blocked: 0,
      substituted: 0,
      duration: {
        count: 5,
        meanMs: 141,
        minMs: 80,
        maxMs: 300,
        totalMs: 705,
        p50Ms: 110,
        p95Ms: 300,
        p99Ms: 300,
        samples: 5,
      },
    });
    expect(stats.tools.scrape_page).toMatchObject({ count: 3, ok: 1, failures: 1, blocked: 1 });
    expect(stats.tools.scrape_page?.duration).toMatchObject({ count: 2, meanMs: 250 });
    expect(stats.totals).toMatchObject({ count: 8, ok: 6, failures: 1, blocked: 1 });
    // The seed's version would have added `_start_time` here.
    expect(inputsSeen).toContainEqual({ query: "q120", ms: 120 });
    expect(inputsSeen.every((i) => !("_start_time" in i))).toBe(true);
    expect(inputsSeen).toHaveLength(7); // the blocked call never reached its tool
    expect(lines[0]).toBe("📊 web_search: ok in 120 ms — executions 1, avg 120 ms, failures 0");
    expect(lines).toContain("📊 scrape_page: error in 250 ms — executions 2, avg 250 ms, failures 1");
    expect(lines).toContain("📊 scrape_page: blocked — executions 3, avg 250 ms, failures 1");
    expect(lines).toContain(
      "web_search: 5 calls (5 ok, 0 failed, 0 blocked); mean 141 ms, p50 110 ms, p95 300 ms, p99 300 ms",
    );
    expect(lines.at(-1)).toBe("total: 8 calls, 1 failed, 1 blocked");
  });
});
