import { describe, expect, it } from "vitest";
import { main } from "../src/11-tool-chain-monitoring.js";

describe("11 tool chain monitoring", () => {
  it("warns per agent at 5 in a row, and blocks repeated or too frequent identical calls", async () => {
    const lines: string[] = [];
    const { warnings, blockingRun, blockMessage, chain } = await main((line) => lines.push(line));
    // The researcher: 6 searches in a row → warnings at 5 and 6. The writer's read_file after its 3rd search
    // restarts its streak, so it reaches only 3.
    expect(warnings).toEqual([
      "Loop detected: web_search called 5 times in a row by agent researcher.",
      "Loop detected: web_search called 6 times in a row by agent researcher.",
    ]);
    expect(chain.map((c) => [c.toolName, c.agentRole, c.at])).toEqual(
      [1, 2, 3, 4, 5, 6].map((s) => ["web_search", "researcher", s * 1000]),
    );
    expect(blockingRun).toEqual(["ok", "ok", "blocked", "ok", "ok", "blocked"]);
    expect(blockMessage).toBe(
      "Tool execution blocked by hook. Tool: web_search. Reason: Loop detected: web_search called 3 times in a row with the same input by agent stuck_agent. Try a different approach.",
    );
    expect(lines).toContain(
      "⛔ window: Loop detected: web_search called 4 times within 1m with the same input by agent stuck_agent.",
    );
    expect(lines).toContain("stuck agent: ok, ok, blocked, ok, ok, blocked");
  });
});
