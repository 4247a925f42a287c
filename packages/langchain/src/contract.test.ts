import { tool } from "@langchain/core/tools";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { toolwareMiddleware } from "@toolware/langchain";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

function wipeTool(ran: string[]) {
  return tool(
    async ({ disk }: { disk: string }) => {
      ran.push(disk);
      return `wiped ${disk}`;
    },
    { name: "wipe", schema: z.object({ disk: z.string() }) },
  );
}

// Every documented way the agent runs a tool meets the same guard.
describe("toolwareMiddleware: the guard holds on every path of createAgent", () => {
  it("agent.stream (updates): a block is the call's error ToolMessage; the tool never runs", async () => {
    const ran: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.block("no wiping"));
    const model = modelCalling([{ name: "wipe", args: { disk: "sda" }, id: "call_s1" }]);
    const agent = createAgent({ model, tools: [wipeTool(ran)], middleware: [toolwareMiddleware(hooks)] });
    const stream = await agent.stream({ messages: [{ role: "user", content: "go" }] }, { streamMode: "updates" });
    for await (const _chunk of stream) {
      // drain the stream: the run goes on through the tool step
    }
    expect(ran).toEqual([]);
    const [seen] = toolMessagesSeen(model);
    expect(seen?.status).toBe("error");
    expect(seen?.tool_call_id).toBe("call_s1");
    expect(seen?.content).toContain("no wiping");
  });

  it("a before-hook returning false, or failing (default policy), fails closed: error ToolMessage, tool not run", async () => {
    for (const hook of [() => false, () => Promise.reject(new Error("policy store down"))]) {
      const ran: string[] = [];
      const hooks = new ToolHooks();
      hooks.before(hook);
      const statuses: string[] = [];
      const model = modelCalling([{ name: "wipe", args: { disk: "sdb" }, id: "call_f1" }]);
      const agent = createAgent({
        model,
        tools: [wipeTool(ran)],
        middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => statuses.push(o.status) })],
      });
      await agent.invoke({ messages: [{ role: "user", content: "go" }] });
      expect(ran).toEqual([]);
      expect(toolMessagesSeen(model)[0]?.status).toBe("error");
      expect(statuses).toHaveLength(1);
      expect(statuses[0]).not.toBe("ok");
    }
  });

  it('a "throw"-policy hook makes the run reject; the tool never runs', async () => {
    const ran: string[] = [];
    const hooks = new ToolHooks();
    hooks.before(
      () => {
        throw new Error("stop everything");
      },
      { onError: "throw" },
    );
    const model = modelCalling([{ name: "wipe", args: { disk: "sdc" }, id: "call_t1" }]);
    const agent = createAgent({ model, tools: [wipeTool(ran)], middleware: [toolwareMiddleware(hooks)] });
    await expect(agent.invoke({ messages: [{ role: "user", content: "go" }] })).rejects.toThrow();
    expect(ran).toEqual([]);
  });

  it("parallel calls of one message: each its own call id and outcome, a block for one leaves the others", async () => {
    const ran: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      if (ctx.toolInput.disk === "sda") ctx.block("not the system disk");
    });
    const outcomes: ToolCallOutcome[] = [];
    const model = modelCalling([
      { name: "wipe", args: { disk: "sda" }, id: "p1" },
      { name: "wipe", args: { disk: "sdb" }, id: "p2" },
      { name: "wipe", args: { disk: "sdc" }, id: "p3" },
    ]);
    const agent = createAgent({
      model,
      tools: [wipeTool(ran)],
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => outcomes.push(o) })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    expect(ran.sort()).toEqual(["sdb", "sdc"]);
    expect(Object.fromEntries(outcomes.map((o) => [o.callId, o.status]))).toEqual({
      p1: "blocked",
      p2: "ok",
      p3: "ok",
    });
    const byId = Object.fromEntries(toolMessagesSeen(model).map((m) => [m.tool_call_id, m.status]));
    expect(byId).toEqual({ p1: "error", p2: "success", p3: "success" });
  });
});
