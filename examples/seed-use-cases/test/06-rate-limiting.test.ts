import { describe, expect, it } from "vitest";
import { main } from "../src/06-rate-limiting.js";

describe("06 rate limiting", () => {
  it("allows 10 calls per minute, tells the agent when to retry, and stays exact under concurrency", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    expect(summary.sequential).toEqual([...Array(10).fill("ok"), "blocked", "blocked"]);
    // Calls were 1 s apart: the first one leaves the window 50 s after the 11th call.
    expect(summary.refusal).toBe(
      "Tool execution blocked by hook. Tool: web_search. Reason: Rate limit exceeded for tool:web_search: at most 10 calls per 1m. Retry after 50s.",
    );
    expect(summary.afterWindow).toBe("ok");
    expect(summary.concurrentAllowed).toBe(10);
    expect(summary.bucket).toEqual(["ok", "ok", "ok", "ok", "ok", "blocked", "ok"]);
    expect(summary.apiHits).toBe(10 + 1 + 10 + 6);
    expect(lines).toContain("25 concurrent calls by one agent: 10 allowed");
    expect(lines.filter((l) => l.startsWith("🚫"))).toHaveLength(2);
  });
});
