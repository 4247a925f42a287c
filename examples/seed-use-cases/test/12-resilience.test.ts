import { describe, expect, it } from "vitest";
import { main } from "../src/12-resilience.js";

describe("12 resilience: timeout + retry + circuit breaker", () => {
  it("retries transient failures and timeouts, not bad requests; opens, answers fast, recovers", async () => {
    const lines: string[] = [];
    const { calls, upstreamHits, breakerStates } = await main((line) => lines.push(line));
    expect(calls.map((c) => [c.status, c.attempts])).toEqual([
      ["ok", 2],
      ["ok", 2],
      ["error", 1],
      ["error", 3],
      ["error", 3],
      ["blocked", 0],
      ["ok", 1],
    ]);
    expect(calls[1]?.result).toBe("Lisbon: 18°C, light rain");
    expect(calls[2]?.result).toBe("Tool execution failed. Tool: weather_api. Error: 400 unknown city Atlantis");
    expect(calls[5]?.result).toBe(
      "Tool execution blocked by hook. Tool: weather_api. Reason: circuit open for weather_api, retry in 30s",
    );
    expect(breakerStates).toEqual(["closed", "closed", "closed", "closed", "open", "open", "closed"]);
    // 2 + 2 + 1 + 3 + 3 + 0 (open) + 1 (trial)
    expect(upstreamHits).toBe(12);
    expect(lines).toContain("    attempt 1 failed (weather_api timed out after 50 ms), retrying in 5 ms");
    expect(lines).toContain("    attempt 2 failed (503 Service Unavailable), retrying in 10 ms");
  });
});
