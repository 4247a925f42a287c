import { Agent, handoff, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, tool } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

const wipe = (ran: string[]) =>
  tool({
    name: "wipe",
    description: "Wipes a disk",
    parameters: z.object({ disk: z.string() }),
    execute: ({ disk }) => {
      ran.push(disk);
      return `wiped ${disk}`;
    },
  });

// One policy for every agent a guarded run can reach, whenever the app wired it in.
describe("guardAgent: agents a run reaches by handoff", () => {
  for (const how of ["as an Agent", "through handoff()"] as const) {
    it(`a handoff target added after guardAgent (${how}) is guarded when the run reaches it`, async () => {
      const ran: string[] = [];
      const hooks = new ToolHooks();
      hooks.use(guardrails({ deny: ["wipe"] }));
      const helperModel = new ScriptedModel([
        [functionCall("wipe", { disk: "sda" }, { callId: "w1" })],
        [assistantMessage("done")],
      ]);
      const helper = new Agent({ name: "helper", model: helperModel, tools: [wipe(ran)] });
      const mainModel = new ScriptedModel([
        [functionCall("transfer_to_helper", {}, { callId: "h1" })],
        [assistantMessage("unused")],
      ]);
      const main = guardAgent(new Agent({ name: "main", model: mainModel }), hooks);
      main.handoffs.push(how === "as an Agent" ? helper : handoff(helper));
      await run(main, "wipe sda");
      expect(ran).toEqual([]);
      expect(String(toolOutputs(helperModel.calls[1]?.request).w1)).toMatch(/^Tool execution blocked by hook/);
    });
  }
});
