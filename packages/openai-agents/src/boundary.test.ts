// The call boundary every adapter shares, through the SDK's own loop and ScriptedModel: unreadable
// arguments end the call TOOLWARE_INVALID_INPUT, any thrown value is an error result, and guarding is once.
import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, tool } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe("guardAgent: arguments that are not an object", () => {
  it("end the call TOOLWARE_INVALID_INPUT: the model reads why, no hook and no tool run, onOutcome hears", async () => {
    const notObjects = fc.oneof(fc.string(), fc.array(fc.jsonValue(), { maxLength: 3 }), fc.integer(), fc.boolean());
    await fc.assert(
      fc.asyncProperty(fc.oneof(notObjects, fc.constant(null)), async (value) => {
        const ran: unknown[] = [];
        // Non-strict, any-typed parameters: only toolware stands between such arguments and the tool.
        const echo = tool({
          name: "echo",
          description: "echo",
          parameters: { type: "object", properties: {}, required: [], additionalProperties: true },
          strict: false,
          execute: (input) => {
            ran.push(input);
            return "ran";
          },
        });
        const hooks = new ToolHooks();
        let hooksRan = 0;
        hooks.before(() => {
          hooksRan++;
        });
        const outcomes: ToolCallOutcome[] = [];
        const model = new ScriptedModel([
          [functionCall("echo", JSON.stringify(value), { callId: "c1" })],
          [assistantMessage("ok")],
        ]);
        await run(
          guardAgent(new Agent({ name: "a", model, tools: [echo] }), hooks, { onOutcome: (o) => outcomes.push(o) }),
          "go",
        );
        expect([ran, hooksRan]).toEqual([[], 0]);
        expect(outcomes.map((o) => [o.status, toolwareCode(o.error)])).toEqual([["error", "TOOLWARE_INVALID_INPUT"]]);
        expect(String(toolOutputs(model.calls[1]?.request).c1)).toMatch(
          /^Tool execution failed\. Tool: echo\. Error: toolware: the arguments of echo must be a JSON object of named fields, got .+ \(TOOLWARE_INVALID_INPUT\)$/,
        );
      }),
      { numRuns: 20 },
    );
  });
});

describe("guardAgent: any thrown value is an error result", () => {
  const thrown: [string, () => unknown][] = [
    ["null", () => null],
    ["undefined", () => undefined],
    ["a Symbol", () => Symbol("boom")],
    ["a revoked Proxy", revoked],
    [
      "an object whose message getter throws",
      () =>
        Object.create(Error.prototype, {
          message: {
            get() {
              throw new Error("getter");
            },
          },
        }),
    ],
  ];
  for (const [name, make] of thrown) {
    it(`a tool that throws ${name}: the model reads a failure, the run goes on`, async () => {
      const boom = tool({
        name: "boom",
        description: "fails",
        parameters: z.object({}),
        execute: (): string => {
          throw make();
        },
      });
      const outcomes: ToolCallOutcome[] = [];
      const model = new ScriptedModel([[functionCall("boom", {}, { callId: "b1" })], [assistantMessage("ok")]]);
      const result = await run(
        guardAgent(new Agent({ name: "a", model, tools: [boom] }), new ToolHooks(), {
          onOutcome: (o) => outcomes.push(o),
        }),
        "go",
      );
      expect(result.finalOutput).toBe("ok");
      expect(outcomes.map((o) => o.status)).toEqual(["error"]);
      expect(String(toolOutputs(model.calls[1]?.request).b1)).toMatch(/^Tool execution failed\. Tool: boom\. Error: /);
    });
  }
});

describe("guardAgent: guarding once", () => {
  it("a handoff target and a tool shared by two agents of one stack run one chain per call", async () => {
    const hooks = new ToolHooks();
    let before = 0;
    hooks.before(() => {
      before++;
    });
    const ran: string[] = [];
    const lookup = tool({
      name: "lookup",
      description: "looks up",
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        ran.push(q);
        return `found ${q}`;
      },
    });
    const model = new ScriptedModel([[functionCall("lookup", { q: "x" }, { callId: "l1" })], [assistantMessage("ok")]]);
    const billing = new Agent({ name: "billing", tools: [lookup] });
    const triage = guardAgent(new Agent({ name: "triage", model, tools: [lookup], handoffs: [billing] }), hooks);
    const support = guardAgent(new Agent({ name: "support", tools: [lookup], handoffs: [billing] }), hooks);
    expect(support.name).toBe("support");
    await run(triage, "go");
    expect(ran).toEqual(["x"]);
    expect(before).toBe(1);
    // The shared handoff target, passed again itself, is refused: it is guarded already.
    expect(() => guardAgent(billing, hooks)).toThrow(/agent billing is already guarded/);
    // A tool another stack guards is refused, not run through one chain only.
    expect(() => guardAgent(new Agent({ name: "other", tools: [lookup] }), new ToolHooks())).toThrow(
      /tool lookup is already guarded by another ToolHooks/,
    );
  });
});
