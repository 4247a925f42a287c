import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, tool } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

// The SDK's own scripted model (from @openai/agents/testing), streamed and not.
function setup(hook: (toolInput: Record<string, unknown>) => unknown) {
  const ran: string[] = [];
  const outcomes: ToolCallOutcome[] = [];
  const hooks = new ToolHooks();
  hooks.before((ctx) => hook(ctx.toolInput) as never);
  const wipe = tool({
    name: "wipe",
    description: "Wipes a disk",
    parameters: z.object({ disk: z.string() }),
    execute: ({ disk }) => {
      ran.push(disk);
      return `wiped ${disk}`;
    },
  });
  const model = new ScriptedModel([
    [functionCall("wipe", { disk: "sda" }, { callId: "w1" }), functionCall("wipe", { disk: "sdb" }, { callId: "w2" })],
    [assistantMessage("done")],
  ]);
  const agent = guardAgent(new Agent({ name: "ops", model, tools: [wipe] }), hooks, {
    onOutcome: (o) => outcomes.push(o),
  });
  return { ran, outcomes, model, agent };
}

describe("guardAgent under the SDK's own scripted model", () => {
  for (const stream of [false, true]) {
    it(`${stream ? "a streamed" : "a"} run: a block is that call's output, the sibling runs, ids are the SDK's`, async () => {
      const { ran, outcomes, model, agent } = setup((input) => input.disk !== "sda");
      if (stream) {
        const result = await run(agent, "wipe", { stream: true });
        await result.completed;
      } else {
        await run(agent, "wipe");
      }
      expect(ran).toEqual(["sdb"]);
      const outputs = toolOutputs(model.calls[1]?.request);
      expect(String(outputs.w1)).toMatch(/^Tool execution blocked by hook/);
      expect(outputs.w2).toBe("wiped sdb");
      expect(Object.fromEntries(outcomes.map((o) => [o.callId, o.status]))).toEqual({ w1: "blocked", w2: "ok" });
    });
  }

  it("a streamed run with a failing hook (default policy): every call is blocked, the run goes on", async () => {
    const { ran, outcomes, model, agent } = setup(() => {
      throw new Error("policy store down");
    });
    const result = await run(agent, "wipe", { stream: true });
    await result.completed;
    expect(ran).toEqual([]);
    expect(outcomes.map((o) => o.status)).toEqual(["blocked", "blocked"]); // a failing guard blocks (fail closed)
    const outputs = toolOutputs(model.calls[1]?.request);
    expect(String(outputs.w1)).toMatch(/^Tool execution blocked by hook/);
    expect(result.finalOutput).toBe("done");
  });
});
