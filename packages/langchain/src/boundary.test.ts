// The call boundary every adapter shares: unreadable arguments end the call TOOLWARE_INVALID_INPUT,
// any thrown value is an error result, and a shared signal gets one listener however many calls wait on it.
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { guardTool, type ToolCallResult, toolwareMiddleware } from "@toolware/langchain";
import fc from "fast-check";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const notObjects = fc.oneof(
  fc.string(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Values a tool may throw that are no Error, or an Error no one can read. */
const thrownValues = (): [string, () => unknown][] => [
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
  ["a number", () => 42],
];

function toolMessages(model: ReturnType<typeof fakeModel>): ToolMessage[] {
  return (model.calls[1]?.messages ?? []).filter((m: BaseMessage): m is ToolMessage => ToolMessage.isInstance(m));
}

describe("toolwareMiddleware: arguments that are not an object", () => {
  it("end the call TOOLWARE_INVALID_INPUT: the model reads why, no hook runs, the tool never runs, onOutcome hears", async () => {
    await fc.assert(
      fc.asyncProperty(notObjects, async (args) => {
        const ran: unknown[] = [];
        const echo = tool(
          async (input: unknown) => {
            ran.push(input);
            return "ran";
          },
          { name: "echo", schema: z.any() },
        );
        const hooks = new ToolHooks();
        const seenByHooks: unknown[] = [];
        hooks.before((ctx) => {
          seenByHooks.push(ctx.toolInput);
        });
        const outcomes: ToolCallOutcome<ToolCallResult>[] = [];
        const model = fakeModel()
          .respond(new AIMessage({ content: "", tool_calls: [{ name: "echo", args: args as never, id: "c1" }] }))
          .respond(new AIMessage("done"));
        const agent = createAgent({
          model,
          tools: [echo],
          middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => outcomes.push(o) })],
        });
        await agent.invoke({ messages: [{ role: "user", content: "go" }] });
        expect(ran).toEqual([]);
        expect(seenByHooks).toEqual([]);
        const [message] = toolMessages(model);
        expect(message?.status).toBe("error");
        expect(message?.tool_call_id).toBe("c1");
        expect(message?.content).toMatch(
          /^Tool execution failed\. Tool: echo\. Error: toolware: the arguments of echo must be a JSON object of named fields, got .+ \(TOOLWARE_INVALID_INPUT\)$/,
        );
        expect(outcomes.map((o) => [o.status, toolwareCode(o.error)])).toEqual([["error", "TOOLWARE_INVALID_INPUT"]]);
      }),
      { numRuns: 25 },
    );
  });
});

describe("any thrown value is an error result", () => {
  for (const [name, make] of thrownValues()) {
    it(`toolwareMiddleware: a tool that throws ${name} fails its call, never the run`, async () => {
      const boom = tool(
        async () => {
          throw make();
        },
        { name: "boom", schema: z.object({}) },
      );
      const outcomes: ToolCallOutcome<ToolCallResult>[] = [];
      const model = fakeModel()
        .respond(new AIMessage({ content: "", tool_calls: [{ name: "boom", args: {}, id: "b1" }] }))
        .respond(new AIMessage("done"));
      const agent = createAgent({
        model,
        tools: [boom],
        middleware: [toolwareMiddleware(new ToolHooks(), { onOutcome: (o) => outcomes.push(o) })],
      });
      const result = await agent.invoke({ messages: [{ role: "user", content: "go" }] });
      expect(result.messages.at(-1)?.content).toBe("done");
      const [message] = toolMessages(model);
      expect(message?.status).toBe("error");
      expect(message?.content).toMatch(/^Tool execution failed\. Tool: boom\. Error: /);
      expect(outcomes.map((o) => o.status)).toEqual(["error"]);
    });

    it(`guardTool: a tool that throws ${name}, called by LangChain with a tool call, answers an error message`, async () => {
      const hooks = new ToolHooks();
      const boom = guardTool(
        tool(
          async () => {
            throw make();
          },
          { name: "boom", schema: z.object({}) },
        ),
        hooks,
      );
      const message = await boom.invoke({ name: "boom", args: {}, id: "g1", type: "tool_call" });
      expect(ToolMessage.isInstance(message)).toBe(true);
      expect((message as ToolMessage).status).toBe("error");
      expect((message as ToolMessage).content).toMatch(/^Tool execution failed\. Tool: boom\. Error: /);
    });
  }
});

describe("many parallel calls on one signal", () => {
  // LangChain itself adds one listener per call on the run's signal (raceWithSignal): past ten calls it warns alone.
  // Eight calls stay within its own budget; toolware used to add one more per call and tipped it over.
  it("print no MaxListenersExceededWarning: the run's signal gets one listener from toolware, not one per call", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const echo = tool(async ({ i }: { i: number }) => `ran ${i}`, {
        name: "echo",
        schema: z.object({ i: z.number() }),
      });
      const calls = Array.from({ length: 8 }, (_, i) => ({ name: "echo", args: { i }, id: `c${i}` }));
      const model = fakeModel()
        .respond(new AIMessage({ content: "", tool_calls: calls }))
        .respond(new AIMessage("done"));
      const agent = createAgent({ model, tools: [echo], middleware: [toolwareMiddleware(new ToolHooks())] });
      const controller = new AbortController();
      await agent.invoke({ messages: [{ role: "user", content: "go" }] }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(toolMessages(model).map((m) => m.content)).toEqual(calls.map((_, i) => `ran ${i}`));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
