import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, openAIAgentsApprovals, tool } from "./index.js";

beforeAll(() => setTracingDisabled(true));

// The run state approves one call of one tool: nothing else may borrow that approval.
describe("openAIAgentsApprovals: an approval in the run state answers only the call it was given for", () => {
  it("a call from elsewhere carrying the id of an approved call that is running is denied", async () => {
    const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
    hooks.use(approval({ tools: ["delete_file", "drop_table"] }));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    const deleteFile = tool({
      name: "delete_file",
      description: "Deletes a file",
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        started = true;
        await gate;
        return `deleted ${path}`;
      },
    });
    const model = new ScriptedModel([
      [functionCall("delete_file", { path: "a.txt" }, { callId: "call_d1" })],
      [assistantMessage("ok")],
    ]);
    const agent = guardAgent(new Agent({ name: "ops", model, tools: [deleteFile] }), hooks);
    const first = await run(agent, "delete a.txt");
    for (const item of first.state.getInterruptions()) first.state.approve(item);
    const resumed = run(agent, first.state);
    for (let i = 0; i < 100 && !started; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toBe(true);
    const dropped: string[] = [];
    const dropTable = defineTool({ name: "drop_table", execute: () => dropped.push("users") });
    const other = await hooks.invoke(dropTable, {}, { callId: "call_d1" });
    const again = await hooks.invoke(
      defineTool({ name: "delete_file", execute: () => "x" }),
      {},
      { callId: "call_d1" },
    );
    release();
    await resumed;
    expect(other.status).toBe("blocked");
    expect(again.status).toBe("blocked");
    expect(dropped).toEqual([]);
  });
});
