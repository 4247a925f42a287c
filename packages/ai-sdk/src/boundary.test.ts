// The call boundary every adapter shares, through ai 6's own loop: unreadable arguments end the call
// TOOLWARE_INVALID_INPUT, any thrown value is an error result, a guarded tool is not guarded twice,
// and the model never reads advice meant for the developer.
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardTools } from "./index.js";
import { generateResults, toolResultsIn } from "./test-fixtures.js";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model whose first turn calls `toolName` with this raw JSON text as its arguments. */
function modelSending(toolName: string, rawInput: string) {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "c1", toolName, input: rawInput }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      },
      ...generateResults(["done"]),
    ],
  });
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe("guardTools: arguments that are not an object", () => {
  it("end the call TOOLWARE_INVALID_INPUT: the model reads why, no hook and no tool run, onOutcome hears", async () => {
    const notObjects = fc.oneof(
      fc.string(),
      fc.array(fc.jsonValue(), { maxLength: 3 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(notObjects, async (value) => {
        const ran: unknown[] = [];
        // A schema that takes anything: only toolware stands between such arguments and the tool.
        const echo = tool({
          inputSchema: jsonSchema<unknown>({}),
          execute: async (input) => {
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
        const m = modelSending("echo", JSON.stringify(value));
        await generateText({
          model: m,
          tools: guardTools(hooks, { echo }, { onOutcome: (o) => outcomes.push(o) }),
          prompt: "go",
          stopWhen: stepCountIs(3),
        });
        expect([ran, hooksRan]).toEqual([[], 0]);
        expect(outcomes.map((o) => [o.status, toolwareCode(o.error)])).toEqual([["error", "TOOLWARE_INVALID_INPUT"]]);
        const seen = toolResultsIn(m.doGenerateCalls[1]?.prompt).c1 as { type: string; value: string };
        expect(seen.type).toBe("error-text");
        expect(seen.value).toMatch(
          /Tool execution failed\. Tool: echo\. Error: toolware: the arguments of echo must be a JSON object of named fields, got .+ \(TOOLWARE_INVALID_INPUT\)$/,
        );
      }),
      { numRuns: 20 },
    );
  });
});

describe("guardTools: any thrown value is an error result", () => {
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
        inputSchema: z.object({}),
        execute: async (): Promise<string> => {
          throw make();
        },
      });
      const outcomes: ToolCallOutcome[] = [];
      const m = modelSending("boom", "{}");
      const result = await generateText({
        model: m,
        tools: guardTools(new ToolHooks(), { boom }, { onOutcome: (o) => outcomes.push(o) }),
        prompt: "go",
        stopWhen: stepCountIs(3),
      });
      expect(result.text).toBe("done");
      expect(outcomes.map((o) => o.status)).toEqual(["error"]);
      const seen = toolResultsIn(m.doGenerateCalls[1]?.prompt).c1 as { type: string; value: string };
      expect(seen.type).toBe("error-text");
      expect(seen.value).toMatch(/Tool execution failed\. Tool: boom\. Error: /);
    });
  }
});

describe("guardTools: guarding once", () => {
  it("a set guarded twice is refused (TOOLWARE_AI_SDK_ALREADY_GUARDED), so a limit of 1 never refuses the only call", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 1, per: "1m" }));
    const ran: string[] = [];
    const send = tool({
      inputSchema: z.object({ to: z.string() }),
      execute: async ({ to }) => {
        ran.push(to);
        return `sent to ${to}`;
      },
    });
    const guarded = guardTools(hooks, { send });
    for (const again of [hooks, new ToolHooks()]) {
      let error: unknown;
      try {
        guardTools(again, guarded);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe("TOOLWARE_AI_SDK_ALREADY_GUARDED");
      expect((error as Error).message).toMatch(/tool send is already guarded/);
    }
    // The tools one defined may still be guarded again, into a set of their own: each set runs one chain.
    expect(() => guardTools(new ToolHooks(), { send })).not.toThrow();
    const m = modelSending("send", '{"to":"a@x"}');
    await generateText({ model: m, tools: guarded, prompt: "go", stopWhen: stepCountIs(3) });
    expect(ran).toEqual(["a@x"]);
  });
});

describe("the model never reads advice meant for the developer", () => {
  it("a throwing bind: the model reads a plain failure with the code; the developer gets the error", async () => {
    const reported: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push([where, error]) });
    const echo = tool({ inputSchema: z.object({}), execute: async () => "ran" });
    const m = modelSending("echo", "{}");
    await generateText({
      model: m,
      tools: guardTools(
        hooks,
        { echo },
        {
          bind: () => {
            throw new Error("session store down at 10.0.0.7");
          },
        },
      ),
      prompt: "go",
      stopWhen: stepCountIs(3),
    });
    const seen = toolResultsIn(m.doGenerateCalls[1]?.prompt).c1 as { type: string; value: string };
    expect(seen.value).toMatch(
      /Tool execution failed\. Tool: echo\. Error: the call could not be run \(TOOLWARE_BIND_FAILED\)$/,
    );
    expect(seen.value).not.toContain("10.0.0.7");
    expect(seen.value).not.toContain("bind()");
    expect(reported.map(([where, error]) => [where, toolwareCode(error)])).toEqual([
      ["ai-sdk", "TOOLWARE_BIND_FAILED"],
    ]);
  });
});
