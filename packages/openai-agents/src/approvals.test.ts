import { Agent, RunState, run, setTracingDisabled, tool } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { type ApprovalDecision, approval } from "@toolware/packs/approval";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, openAIAgentsApprovals } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

function setup() {
  const deleted: string[] = [];
  const decisions: ApprovalDecision[] = [];
  const outcomes: ToolCallOutcome[] = [];
  let chainRuns = 0;
  const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
  hooks.before(() => {
    chainRuns++; // stands for a rate limit or an audit: must count each call once
  });
  hooks.use(approval({ tools: ["delete_file"], onDecision: (d) => decisions.push(d) }));
  // A fresh agent instance, as a new process would build it.
  const makeAgent = (model: ScriptedModel) =>
    guardAgent(
      new Agent({
        name: "ops",
        model,
        tools: [
          tool({
            name: "delete_file",
            description: "Deletes a file",
            parameters: z.object({ path: z.string() }),
            execute: ({ path }) => {
              deleted.push(path);
              return `deleted ${path}`;
            },
          }),
          tool({ name: "list", description: "Lists files", parameters: z.object({}), execute: () => "a.txt" }),
        ],
      }),
      hooks,
      { onOutcome: (o) => outcomes.push(o) },
    );
  const first = () =>
    new ScriptedModel([
      [functionCall("delete_file", { path: "a.txt" }, { callId: "d1" }), functionCall("list", {}, { callId: "l1" })],
    ]);
  return { deleted, decisions, outcomes, makeAgent, first, chainRuns: () => chainRuns };
}

describe("durable approval through the SDK's run state", () => {
  it("the approval pack's question becomes an interruption; approve after serialising resumes in a fresh agent", async () => {
    const s = setup();
    const result = await run(s.makeAgent(s.first()), "clean up");
    expect(result.interruptions.map((i) => i.rawItem.type === "function_call" && i.rawItem.callId)).toEqual(["d1"]);
    expect(s.deleted).toEqual([]);
    expect(s.outcomes.map((o) => [o.callId, o.status])).toEqual([["l1", "ok"]]); // the sibling ran
    const saved = result.state.toString();

    const model = new ScriptedModel([[assistantMessage("done")]]);
    const state = await RunState.fromString(s.makeAgent(model), saved);
    const [item] = state.getInterruptions();
    if (item === undefined) throw new Error("no interruption restored");
    state.approve(item);
    const resumed = await run(s.makeAgent(model), state);
    expect(resumed.finalOutput).toBe("done");
    expect(s.deleted).toEqual(["a.txt"]);
    expect(toolOutputs(model.calls[0]?.request).d1).toBe("deleted a.txt");
    expect(s.decisions.map((d) => [d.callId, d.approved, d.source, d.answer])).toEqual([["d1", true, "human", "yes"]]);
    expect(s.chainRuns()).toBe(2); // l1 once, d1 once (only after the decision)
  });

  it("a rejection's message reaches the model and the tool never runs (in process, without serialising)", async () => {
    const s = setup();
    const agent = s.makeAgent(s.first());
    const result = await run(agent, "clean up");
    const [item] = result.interruptions;
    if (item === undefined) throw new Error("expected an interruption");
    result.state.reject(item, { message: "not on a Friday" });
    const model = new ScriptedModel([[assistantMessage("ok")]]);
    agent.model = model;
    await run(agent, result.state);
    expect(s.deleted).toEqual([]);
    expect(toolOutputs(model.calls[0]?.request).d1).toBe("not on a Friday");
    expect(s.decisions).toEqual([]);
  });

  it("without a decision in the run state the pack denies (fail closed)", async () => {
    const s = setup();
    const agent = s.makeAgent(s.first());
    const [deleteFile] = agent.tools;
    if (deleteFile?.type !== "function") throw new Error("expected a function tool");
    const runContext = { context: {}, isToolApproved: () => undefined } as never;
    const out = await deleteFile.invoke(runContext, '{"path":"b.txt"}', {
      toolCall: { type: "function_call", callId: "d9", name: "delete_file", arguments: '{"path":"b.txt"}' },
    });
    expect(out).toMatch(
      /^Tool execution blocked by hook\. Tool: delete_file\. Reason: approval .*could not be requested/,
    );
    expect(s.deleted).toEqual([]);
    expect(s.decisions[0]?.source).toBe("unavailable");
  });

  it("asks a fallback for calls outside a guarded agent, and checks its options", async () => {
    const provider = openAIAgentsApprovals({ fallback: () => "yes" });
    const request = {
      prompt: "Approve x?",
      defaultMessage: undefined,
      toolName: "x",
      callId: "nope",
      signal: new AbortController().signal,
    };
    expect(await provider(request)).toBe("yes");
    await expect(openAIAgentsApprovals()(request)).rejects.toThrow(/did not come through a guarded OpenAI agent/);
    for (const bad of [{ fallbak: () => "yes" }, { fallback: "yes" }, null]) {
      let code: string | undefined;
      try {
        openAIAgentsApprovals(bad as never);
      } catch (e) {
        code = toolwareCode(e);
      }
      expect(code).toMatch(/^TOOLWARE_(UNKNOWN|INVALID)_OPTION$/);
    }
  });
});
