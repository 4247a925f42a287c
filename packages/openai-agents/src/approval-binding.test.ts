import { Agent, RunState, run, setTracingDisabled, tool } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, openAIAgentsApprovals } from "./index.js";

beforeAll(() => setTracingDisabled(true));

function setup(before?: (hooks: ToolHooks) => void) {
  const ran: string[] = [];
  const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
  before?.(hooks);
  hooks.use(approval({ tools: ["delete_file", "delete_account"] }));
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
              ran.push(`file:${path}`);
              return `deleted ${path}`;
            },
          }),
          tool({
            name: "delete_account",
            description: "Deletes an account",
            parameters: z.object({ path: z.string() }),
            execute: ({ path }) => {
              ran.push(`account:${path}`);
              return `deleted account ${path}`;
            },
          }),
        ],
      }),
      hooks,
    );
  return { ran, makeAgent };
}

// Approves the first call (d1, delete_file a.txt) and resumes; the model's next turn reuses the id d1.
async function reuse(next: ReturnType<typeof functionCall>, before?: (hooks: ToolHooks) => void) {
  const s = setup(before);
  const first = await run(
    s.makeAgent(new ScriptedModel([[functionCall("delete_file", { path: "a.txt" }, { callId: "d1" })]])),
    "go",
  );
  const model = new ScriptedModel([[next], [assistantMessage("done")]]);
  const state = await RunState.fromString(s.makeAgent(model), first.state.toString());
  const [item] = state.getInterruptions();
  if (item === undefined) throw new Error("no interruption");
  state.approve(item);
  let error: unknown;
  const resumed = await run(s.makeAgent(model), state).catch((e: unknown) => {
    error = e;
    return undefined;
  });
  return { ran: s.ran, resumed, error };
}

describe("OpenAI RunState approvals: an approval answers one call, once", () => {
  // The SDK binds its own per-call approvals to the invocation: a reused id fails the run closed
  // (ModelBehaviorError) before any tool or hook runs. These guard that it stays so.
  it("the same id with another tool never runs on the first call's approval (the SDK fails the run)", async () => {
    const r = await reuse(functionCall("delete_account", { path: "a.txt" }, { callId: "d1" }));
    expect(r.ran).toEqual(["file:a.txt"]);
    expect(String(r.error)).toMatch(/reused for a different invocation/);
  });

  it("the same id and tool with other arguments never runs on the first call's approval", async () => {
    const r = await reuse(functionCall("delete_file", { path: "b.txt" }, { callId: "d1" }));
    expect(r.ran).toEqual(["file:a.txt"]);
    expect(String(r.error)).toMatch(/reused for a different invocation/);
  });

  it("the run state's yes answers the model's arguments: a hook before the gate that rewrote them gets a denial", async () => {
    const r = await reuse(functionCall("delete_file", { path: "x.txt" }, { callId: "d2" }), (hooks) =>
      hooks.before(
        (ctx) => {
          ctx.toolInput.path = "/etc/passwd";
        },
        { priority: 100 },
      ),
    );
    // d1 was approved for a.txt; the hook made it /etc/passwd before the gate: denied, nothing ran.
    expect(r.ran).toEqual([]);
  });

  it("an approval is consumed once: the same id, tool and arguments later do not run again unasked", async () => {
    const r = await reuse(functionCall("delete_file", { path: "a.txt" }, { callId: "d1" }));
    expect(r.ran).toEqual(["file:a.txt"]);
  });
});
