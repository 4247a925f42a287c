import { tool } from "@langchain/core/tools";
import { Agent, ToolHooks } from "@toolware/core";
import { toolwareMiddleware } from "@toolware/langchain";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

// Two runs of one agent at once whose models reuse a tool-call id (fake models, retries, some providers):
// each call is its own call for toolware: its own bindings, its own guard, its own tool run.
function setup() {
  const ran: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const send = tool(
    async ({ to }: { to: string }) => {
      ran.push(to);
      await gate;
      return `sent to ${to}`;
    },
    { name: "send", schema: z.object({ to: z.string() }) },
  );
  const hooks = new ToolHooks();
  const intern = new Agent({ role: "intern" });
  hooks.before((ctx) => {
    if (ctx.agent?.role === "intern") ctx.block("interns cannot send");
  });
  const seen: Array<[string | undefined, string]> = [];
  const middleware = toolwareMiddleware(hooks, {
    bind: (request) =>
      (request.runtime?.context as { user?: string } | undefined)?.user === "bob" ? { agent: intern } : {},
    onOutcome: (o, request) => seen.push([(request.toolCall.args as { to?: string }).to, o.status]),
  });
  return { ran, release, send, middleware, seen };
}

describe("toolwareMiddleware: concurrent calls that share a tool-call id", () => {
  it("without a thread: the second run's call is guarded and run on its own, not joined to the first", async () => {
    const { ran, release, send, middleware, seen } = setup();
    const modelA = modelCalling([{ name: "send", args: { to: "alice@x" }, id: "call_1" }]);
    const modelB = modelCalling([{ name: "send", args: { to: "bob@x" }, id: "call_1" }]);
    const agentA = createAgent({ model: modelA, tools: [send], middleware: [middleware] });
    const agentB = createAgent({ model: modelB, tools: [send], middleware: [middleware] });
    const a = agentA.invoke({ messages: [{ role: "user", content: "go" }] }, { context: { user: "alice" } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const b = agentB.invoke({ messages: [{ role: "user", content: "go" }] }, { context: { user: "bob" } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await Promise.all([a, b]);
    expect(ran).toEqual(["alice@x"]);
    expect(toolMessagesSeen(modelA)[0]?.content).toBe("sent to alice@x");
    const [bobSaw] = toolMessagesSeen(modelB);
    expect(bobSaw?.status).toBe("error");
    expect(bobSaw?.content).toContain("interns cannot send");
    expect(seen.sort()).toEqual([
      ["alice@x", "ok"],
      ["bob@x", "blocked"],
    ]);
  });
});
