import type { BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { tool } from "@langchain/core/tools";
import type { Command } from "@langchain/langgraph";
import type { ToolCallHookContext, ToolCallOutcome } from "@toolware/core";
import { ToolHooks } from "@toolware/core";
import {
  guardTool,
  type LangChainCall,
  langchainCall,
  langchainToolCall,
  type ToolCallResult,
  toolwareMiddleware,
} from "@toolware/langchain";
import type { AgentMiddleware } from "langchain";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";

describe("the frameworks' own types survive", () => {
  it("langchainCall gives LangChain's request, typed by the agent's state and context", () => {
    const ctx = {} as ToolCallHookContext;
    const call = langchainCall<{ step: number }, { user: string }>(ctx);
    expectTypeOf(call).toEqualTypeOf<LangChainCall<{ step: number }, { user: string }> | undefined>();
    expectTypeOf(call!.toolCall).toEqualTypeOf<ToolCall>();
    expectTypeOf(call!.runtime.context).toEqualTypeOf<{ user: string }>();
    expectTypeOf(call!.state.step).toEqualTypeOf<number>();
    expectTypeOf(call!.state.messages).toEqualTypeOf<BaseMessage[]>();
    expectTypeOf(call!.runtime.signal).toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf(langchainToolCall(ctx)?.toolCall).toEqualTypeOf<ToolCall | undefined>();
  });

  it("onOutcome sees LangChain's ToolMessage | Command as raw; the middleware is an AgentMiddleware", () => {
    expectTypeOf<ToolCallResult>().toEqualTypeOf<ToolMessage | Command>();
    const middleware = toolwareMiddleware(new ToolHooks(), {
      onOutcome: (outcome, call) => {
        expectTypeOf(outcome).toEqualTypeOf<ToolCallOutcome<ToolMessage | Command>>();
        expectTypeOf(call).toEqualTypeOf<LangChainCall>();
      },
    });
    expectTypeOf(middleware).toMatchTypeOf<AgentMiddleware>();
    expectTypeOf(middleware).not.toBeAny();
  });

  it("guardTool keeps the tool's own type (schema inference included)", () => {
    const search = tool(async ({ q }: { q: string }) => q, { name: "search", schema: z.object({ q: z.string() }) });
    const guarded = guardTool(search, new ToolHooks());
    expectTypeOf(guarded).toEqualTypeOf(search);
    expectTypeOf(guarded).not.toBeAny();
  });
});
