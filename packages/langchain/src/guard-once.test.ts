// One chain per call and stack: a second guard of the same ToolHooks lets the call through; a guard
// of another ToolHooks runs its own chain (it is another stack, never skipped).
import { tool } from "@langchain/core/tools";
import { ToolHooks, toolwareCode } from "@toolware/core";
import { guardTool, toolwareMiddleware } from "@toolware/langchain";
import { rateLimit } from "@toolware/packs/rate-limit";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

function sendTool(ran: string[]) {
  return tool(
    async ({ to }: { to: string }) => {
      ran.push(to);
      return `sent to ${to}`;
    },
    { name: "send", schema: z.object({ to: z.string() }) },
  );
}

describe("guarding once", () => {
  it("two toolwareMiddleware of one ToolHooks in an agent run the chain once per call (a limit of 1 lets it through)", async () => {
    const hooks = new ToolHooks();
    let before = 0;
    hooks.before(() => {
      before++;
    });
    hooks.use(rateLimit({ max: 1, per: "1m" }));
    const ran: string[] = [];
    const model = modelCalling([{ name: "send", args: { to: "a@x" }, id: "c1" }]);
    const agent = createAgent({
      model,
      tools: [sendTool(ran)],
      middleware: [toolwareMiddleware(hooks), toolwareMiddleware(hooks, { name: "toolware-again" })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    expect(ran).toEqual(["a@x"]);
    expect(before).toBe(1);
    expect(toolMessagesSeen(model)[0]?.content).toBe("sent to a@x");
  });

  it("a guardTool of another ToolHooks inside the middleware runs its own chain: its block holds", async () => {
    const outer = new ToolHooks();
    const inner = new ToolHooks();
    inner.before((ctx) => ctx.block("the inner stack says no"));
    const ran: string[] = [];
    const model = modelCalling([{ name: "send", args: { to: "a@x" }, id: "c1" }]);
    const agent = createAgent({
      model,
      tools: [guardTool(sendTool(ran), inner)],
      middleware: [toolwareMiddleware(outer)],
    });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    expect(ran).toEqual([]);
    const [message] = toolMessagesSeen(model);
    expect(message?.status).toBe("error");
    expect(message?.content).toContain("the inner stack says no");
  });

  it("guardTool on a tool already guarded is refused, by the same or another ToolHooks", () => {
    const hooks = new ToolHooks();
    const send = guardTool(sendTool([]), hooks);
    for (const again of [hooks, new ToolHooks()]) {
      let error: unknown;
      try {
        guardTool(send, again);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe("TOOLWARE_LANGCHAIN_ALREADY_GUARDED");
      expect((error as Error).message).toMatch(/^toolware: the tool send is already guarded/);
    }
  });
});
