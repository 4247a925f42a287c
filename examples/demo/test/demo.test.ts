import { describe, expect, it } from "vitest";
import { decisionOf, terminalOutput } from "../src/render.js";
import { runDemo } from "../src/run-demo.js";

const ESC = String.fromCharCode(27);

async function run(color = false) {
  let text = "";
  const write = (t: string) => {
    text += t;
  };
  const result = await runDemo({ interactive: false, out: { write, color } });
  return { text, result };
}

describe("the demo", () => {
  it("reports every decision the stack makes", async () => {
    const { result } = await run();
    const lines = result.reports.map((r) => `${r.agent} ${r.outcome.toolName} ${decisionOf(r.outcome)}`);
    expect(lines).toEqual([
      "researcher web_search ok",
      "researcher web_search ok",
      "researcher web_search ok",
      "researcher web_search blocked", // rate limit: 3 per minute
      "researcher get_weather ok",
      "researcher get_weather cached",
      "junior_agent read_file ok",
      "junior_agent read_file blocked", // encoded path traversal
      "junior_agent delete_file blocked", // guardrail for the junior role
      "ops_agent fetch_profile redacted", // API key and e-mail
      "ops_agent send_email redacted", // approved by the scripted human
      "ops_agent send_email blocked", // denied by the scripted human
    ]);
    const reasons = result.reports.filter((r) => r.outcome.status === "blocked").map((r) => r.outcome.reason);
    expect(reasons[0]).toMatch(/Rate limit exceeded/);
    expect(reasons[1]).toMatch(/traversal/);
    expect(reasons[2]).toMatch(/deny list of role junior_agent/);
    expect(reasons[3]).toMatch(/did not approve send_email/);
    const profile = result.reports.find((r) => r.outcome.toolName === "fetch_profile")?.outcome.result ?? "";
    expect(profile).not.toMatch(/sk-live|grace@example\.com/);
    const loopWarnings = [...result.warnings.values()].flat();
    expect(loopWarnings).toHaveLength(1);
    expect(loopWarnings[0]).toMatch(/web_search called 3 times in a row/);
  });

  it("prints live lines, the statistics table and the hook decisions, without colour when asked", async () => {
    const { text } = await run(false);
    expect(text.includes(ESC)).toBe(false);
    expect(text).toMatch(/✖ blocked {2}junior_agent {2}delete_file/);
    expect(text).toMatch(/⚡ cached {3}researcher {4}get_weather/);
    expect(text).toMatch(/🙋 Approve send_email .*→ "no" \(scripted\)/);
    expect(text).toMatch(/Per-tool statistics\ntool +calls +ran +cached +blocked +errors +p50 ms/);
    expect(text).toMatch(/\nweb_search +4 +3 +0 +1 +0 /);
    expect(text).toMatch(/Hook decisions\nhook +blocked/);
    expect(text).toMatch(/12 tool calls, 4 blocked\./);
  });

  it("uses colour only on a terminal without NO_COLOR", async () => {
    const { text } = await run(true);
    expect(text.includes(ESC)).toBe(true);
    const tty = { isTTY: true, write: () => true } as unknown as NodeJS.WriteStream;
    const pipe = { isTTY: false, write: () => true } as unknown as NodeJS.WriteStream;
    const saved = process.env.NO_COLOR;
    try {
      delete process.env.NO_COLOR;
      expect(terminalOutput(tty).color).toBe(true);
      expect(terminalOutput(pipe).color).toBe(false);
      process.env.NO_COLOR = "1";
      expect(terminalOutput(tty).color).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = saved;
    }
  });
});
