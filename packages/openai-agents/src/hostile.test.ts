import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, tool } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

const callIds = fc.oneof(
  fc.constant(""),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 20_000, maxLength: 20_000 }),
  fc.constantFrom("\u0000", "\n\r\t", "__proto__", "constructor", "\u202e\ud800"),
);
// What the model may put in `arguments`: any text, JSON of any shape, and near misses of the schema.
const rawArguments = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.json(),
  fc.record({ path: fc.string({ unit: "binary" }) }).map((v) => JSON.stringify(v)),
  fc.constantFrom("", " ", "{", "null", "[]", "1", '{"path": 1}', '{"__proto__": {"path": "x"}}', '{"path":"a"}x'),
);

describe("hostile values from the OpenAI Agents SDK's side", () => {
  it("any call id and arguments: the run never rejects, the model reads a text output; runs valid or fails closed", async () => {
    await fc.assert(
      fc.asyncProperty(callIds, rawArguments, async (callId, raw) => {
        const ran: unknown[] = [];
        const readFile = tool({
          name: "read_file",
          description: "Reads a file",
          parameters: z.object({ path: z.string() }),
          execute: ({ path }) => {
            ran.push(path);
            return `read ${path}`;
          },
        });
        const outcomes: ToolCallOutcome[] = [];
        const model = new ScriptedModel([[functionCall("read_file", raw, { callId })], [assistantMessage("ok")]]);
        const agent = guardAgent(new Agent({ name: "a", model, tools: [readFile] }), new ToolHooks(), {
          onOutcome: (o) => outcomes.push(o),
        });
        if (callId === "") {
          // The SDK's own check refuses a call without an id before approval or any tool: nothing runs.
          await expect(run(agent, "go")).rejects.toThrow(/non-empty call ID/);
          expect([ran, outcomes]).toEqual([[], []]);
          return;
        }
        const result = await run(agent, "go");
        expect(result.finalOutput).toBe("ok");
        const outputs = toolOutputs(model.calls[1]?.request);
        expect(Object.keys(outputs)).toEqual([callId]);
        const output = outputs[callId];
        expect(typeof output).toBe("string");
        if (outcomes.length === 0) {
          // Only arguments that are not JSON stop in the SDK before invoke: its own parse error is the output.
          expect(() => JSON.parse(raw)).toThrow();
          expect(output).toMatch(/^An error occurred while parsing tool arguments/);
          expect(ran).toEqual([]);
          return;
        }
        expect(outcomes).toHaveLength(1);
        const outcome = outcomes[0] as ToolCallOutcome;
        if (outcome.status === "ok") {
          expect(ran).toHaveLength(1);
          expect(typeof ran[0]).toBe("string");
          expect(output).toBe(`read ${ran[0]}`);
        } else {
          // Refused by toolware with a code, or by the tool's own schema before its body ran.
          expect(ran).toEqual([]);
          expect(outcome.status).toBe("error");
          expect(output).toMatch(/^Tool execution failed\. Tool: read_file\. Error: /);
          const code = toolwareCode(outcome.error);
          if (code === undefined) expect(String(outcome.error)).toMatch(/^InvalidToolInputError: /);
          else expect(output).toContain(`(${code})`);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("arguments that are not JSON: the SDK answers the model, and no interruption stalls the run", async () => {
    const readFile = tool({
      name: "read_file",
      description: "Reads a file",
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => path,
    });
    const model = new ScriptedModel([
      [functionCall("read_file", '{"path":', { callId: "c1" })],
      [assistantMessage("ok")],
    ]);
    const result = await run(guardAgent(new Agent({ name: "a", model, tools: [readFile] }), new ToolHooks()), "go");
    expect(result.interruptions).toEqual([]);
    expect(result.finalOutput).toBe("ok");
    expect(String(toolOutputs(model.calls[1]?.request).c1)).toMatch(/^An error occurred while parsing tool arguments/);
  });
});
