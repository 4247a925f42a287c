import { describe, expect, it } from "vitest";
import { main } from "../src/08-debug-logging.js";

describe("08 debug logging", () => {
  it("logs calls, results, blocks and failures with previews, timings and no secrets", async () => {
    const captured: string[] = [];
    const { levels, lines } = await main((line) => captured.push(line));
    expect(captured).toEqual(lines);
    expect(levels).toEqual({ info: 4, warn: 1, error: 1 });
    const plain = lines.map((l) => l.replace(/ \[[^\]]+\] /, " "));
    expect(plain[0]).toBe(
      '[info] 🔍 fetch_page called | agent: researcher | task: Collect the pricing pages of the three main compet… (+20 chars) | input: {"url":"https://example.com/pricing","apiKey":"[REDACTED]"}',
    );
    expect(plain[1]).toBe(
      "[info] ✅ fetch_page ok in 42ms | result: <html><body>Lorem ipsum dolor sit amet. Lorem ipsum dolor si… (+526 chars)",
    );
    expect(plain[2]).toBe(
      '[info] 🔍 fetch_page called | agent: researcher | task: Unknown | input: {"url":"https://example.com/404"}',
    );
    expect(plain[3]).toBe("[error] ❌ fetch_page failed in 42ms | error: GET https://example.com/404 returned 404");
    expect(plain[4]).toBe(
      '[info] 🔍 delete_file called | agent: Unknown | task: Unknown | input: {"path":"report.md"}',
    );
    expect(plain[5]).toBe("[warn] ⛔ delete_file blocked in 0ms | reason: destructive tools are disabled");
    expect(lines.join("\n")).not.toContain("sk-live");
  });
});
