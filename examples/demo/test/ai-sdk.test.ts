import { describe, expect, it } from "vitest";
import { DEFAULT_MODEL, pickModel } from "../src/ai-sdk-model.js";
import { decidedBy, decisionOf } from "../src/render.js";
import { runDemo } from "../src/run-demo.js";

async function run(aiSdk?: ReturnType<typeof pickModel>) {
  let text = "";
  const write = (t: string) => {
    text += t;
  };
  const result = await runDemo({ interactive: false, out: { write, color: false }, ...(aiSdk ? { aiSdk } : {}) });
  const decisions = result.reports.map((r) => `${r.agent} ${r.outcome.toolName} ${decisionOf(r.outcome)}`);
  return { text, result, decisions };
}

describe("the demo with --ai-sdk and no provider key", () => {
  it("says on its first line that it stays scripted", async () => {
    const { text } = await run(pickModel({}));
    expect(text.split("\n")[0]).toMatch(/^toolware demo — AI SDK mode, still scripted: OPENAI_API_KEY is not set/);
    expect(text).toMatch(/inside the AI SDK's generateText loop/);
  });

  it("makes the same decisions as the scripted loop, through the SDK's loop and call ids", async () => {
    const plain = await run();
    const { result, decisions, text } = await run(pickModel({}));
    expect(decisions).toEqual(plain.decisions);
    expect(decisions).toContain("junior_agent delete_file blocked");
    // The SDK's toolCallId (the mock model's) is toolware's call id.
    expect(result.reports.map((r) => r.outcome.callId).slice(0, 2)).toEqual(["researcher-1", "researcher-2"]);

    const blocked = result.reports.filter((r) => r.outcome.status === "blocked").map((r) => r.outcome.reason);
    expect(blocked).toEqual([
      expect.stringMatching(/Rate limit exceeded/),
      expect.stringMatching(/traversal/),
      expect.stringMatching(/deny list of role junior_agent/),
      expect.stringMatching(/did not approve send_email/),
    ]);
    const deletion = result.reports.find((r) => r.outcome.toolName === "delete_file");
    expect(deletion && decidedBy(deletion.outcome.trace)).toBe("guardrails");
    expect(text).toMatch(/✖ blocked {2}junior_agent {2}delete_file .*deny list of role junior_agent/);

    const profile = result.reports.find((r) => r.outcome.toolName === "fetch_profile");
    expect(profile?.outcome.result).toMatch(/EMAIL-REDACTED/);
    expect(text).toMatch(/✎ redacted ops_agent {5}fetch_profile/);
    expect(text).not.toMatch(/sk-live|grace@example\.com/);
    expect([...result.warnings.values()].flat()).toEqual([expect.stringMatching(/web_search called 3 times/)]);
    expect(text).toMatch(/Per-tool statistics\ntool +calls/);
    expect(text).toMatch(/12 tool calls, 4 blocked\./);
  });
});

describe("pickModel (the choice only: no test calls a real model)", () => {
  it("stays scripted for a missing or empty key", () => {
    expect(pickModel({}).scripted).toBe(true);
    expect(pickModel({ OPENAI_API_KEY: "" }).scripted).toBe(true);
  });

  it("names the real model it would use, overridable by TOOLWARE_DEMO_MODEL", () => {
    const real = pickModel({ OPENAI_API_KEY: "sk-test-not-used" });
    expect(real.scripted).toBe(false);
    expect(real.banner).toContain(`OpenAI ${DEFAULT_MODEL}`);
    expect(pickModel({ OPENAI_API_KEY: "sk-test-not-used", TOOLWARE_DEMO_MODEL: "gpt-5-nano" }).banner).toContain(
      "OpenAI gpt-5-nano",
    );
  });
});
