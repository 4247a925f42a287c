import { describe, expect, it } from "vitest";
import { main } from "../src/09-conditional-hooks.js";

describe("09 conditional hooks", () => {
  it("blocks juniors' destructive tools and web search on sensitive tasks, nothing else", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    expect(summary.calls.map((c) => `${c.tool}/${c.agent}/${c.status}`)).toEqual([
      "delete_file/junior_agent/blocked",
      "send_email/junior_agent/blocked",
      "read_file/junior_agent/ok",
      "delete_file/analyst/ok",
      "web_search/analyst/blocked",
      "web_search/analyst/ok",
      "web_search/junior_agent/blocked",
    ]);
    expect(summary.calls[0]?.reason).toBe("junior agents cannot use delete_file");
    expect(summary.calls[4]?.reason).toBe("web search is not allowed during sensitive tasks");
    expect(summary.blocked).toBe(4);
    expect(lines).toContain("  ❌ Junior agents cannot use send_email");
    expect(lines.filter((l) => l === "  ❌ Web search blocked for sensitive tasks")).toHaveLength(2);
  });

  it("keeps the static filters out of unrelated chains", async () => {
    const summary = await main(() => {});
    expect(summary.chainSizes).toEqual({
      "delete_file@junior_agent": 1,
      "delete_file@analyst": 0,
      "web_search@analyst": 1,
      "read_file@junior_agent": 0,
    });
  });
});
