import { describe, expect, it } from "vitest";
import { main } from "../src/07-result-caching.js";

describe("07 result caching", () => {
  it("serves hits without running the tool, shares in-flight calls, expires, and never caches errors", async () => {
    const lines: string[] = [];
    const { apiCalls, firstTwo, stats, failure } = await main((line) => lines.push(line));
    // toolware, hooks (once for five callers), toolware after the TTL, flaky twice (the failure was not cached)
    expect(apiCalls).toEqual(["toolware", "hooks", "toolware", "flaky", "flaky"]);
    expect(firstTwo[1]).toBe(firstTwo[0]);
    expect(firstTwo[0]).toBe('{"query":"toolware","hits":["toolware result 1","toolware result 2"]}');
    expect(stats).toEqual({ hits: 1, misses: 5, dedupes: 4, bypassed: 0, stored: 4, storeErrors: 0, inFlight: 0 });
    expect(failure).toEqual(["error", "ok"]);
    expect(lines[0]).toBe('💾 web_search({"query":"toolware","limit":2}): miss');
    expect(lines[1]).toBe('💾 web_search({"limit":2,"query":"toolware"}): hit');
    expect(lines.filter((l) => l.endsWith(": dedupe"))).toHaveLength(4);
    expect(lines.at(-1)).toBe("API calls: 5; hits 1, misses 5, shared in flight 4");
  });
});
