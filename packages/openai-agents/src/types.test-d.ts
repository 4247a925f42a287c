import { Agent, type FunctionTool, type protocol, type RunContext, tool } from "@openai/agents";
import { type ToolCallHookContext, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { guardAgent, type OpenAIAgentsCall, openAIAgentsCall, tool as toolwareTool } from "./index.js";

interface AppContext {
  userId: string;
}

describe("types", () => {
  it("guardAgent returns the agent with its own context and output types", () => {
    const agent = new Agent<AppContext, typeof Answer>({ name: "a", outputType: Answer });
    const guarded = guardAgent(agent, new ToolHooks());
    expectTypeOf(guarded).toEqualTypeOf<Agent<AppContext, typeof Answer>>();
  });

  it("bind and onOutcome see the run context typed, never any", () => {
    guardAgent(new Agent<AppContext>({ name: "a" }), new ToolHooks(), {
      bind: (call) => {
        expectTypeOf(call.context).toEqualTypeOf<AppContext>();
        expectTypeOf(call.runContext).toEqualTypeOf<RunContext<AppContext>>();
        expectTypeOf(call.toolCall).toEqualTypeOf<protocol.FunctionCallItem | undefined>();
        expectTypeOf(call.callId).toEqualTypeOf<string | undefined>();
        return undefined;
      },
      onOutcome: (outcome, call) => {
        expectTypeOf(outcome).toEqualTypeOf<ToolCallOutcome<unknown>>();
        expectTypeOf(call).toEqualTypeOf<OpenAIAgentsCall<AppContext>>();
      },
    });
  });

  it("openAIAgentsCall(ctx) reads the framework's types", () => {
    const read = (ctx: ToolCallHookContext) => openAIAgentsCall<AppContext>(ctx);
    expectTypeOf(read).returns.toEqualTypeOf<OpenAIAgentsCall<AppContext> | undefined>();
    expectTypeOf<NonNullable<ReturnType<typeof read>>["context"]>().not.toBeAny();
  });

  it("the guarded tools keep their FunctionTool type", () => {
    const t = tool({ name: "t", description: "d", parameters: z.object({ q: z.string() }), execute: ({ q }) => q });
    const agent = guardAgent(new Agent({ name: "a", tools: [t] }), new ToolHooks());
    expectTypeOf(agent.tools[0]).not.toBeAny();
    expectTypeOf(t.invoke).parameter(1).toEqualTypeOf<string>();
  });

  it("the adapter's tool() has the SDK's signature and keeps the generics", () => {
    expectTypeOf(toolwareTool).toEqualTypeOf<typeof tool>();
    const params = z.object({ q: z.string() });
    const options = {
      name: "t",
      description: "d",
      parameters: params,
      execute: (input: { q: string }, runContext?: RunContext<AppContext>) => `${input.q}${runContext?.context.userId}`,
    };
    const t = toolwareTool(options);
    expectTypeOf(t).toEqualTypeOf(tool(options));
    expectTypeOf(t).toEqualTypeOf<FunctionTool<AppContext, typeof params, string>>();
    expectTypeOf(toolwareTool<typeof params, AppContext, number>).returns.toEqualTypeOf<
      FunctionTool<AppContext, typeof params, number>
    >();
    // @ts-expect-error the SDK's own option types still apply
    toolwareTool({ name: "t", description: "d", parameters: params, execute: () => "", errorFunction: 1 });
  });
});

const Answer = z.object({ answer: z.string() });
