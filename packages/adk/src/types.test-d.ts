import { type BasePlugin, type BaseTool, type Context, InMemoryRunner, LlmAgent } from "@google/adk";
import { type HumanInputProvider, type ToolCallHookContext, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { describe, expectTypeOf, it } from "vitest";
import {
  type AdkCall,
  type AdkToolResponse,
  adkApprovals,
  adkCall,
  outcomeToResponse,
  type ToolwarePlugin,
  toolwarePlugin,
} from "./index.js";

describe("types", () => {
  it("toolwarePlugin returns an ADK BasePlugin that a Runner takes", () => {
    const plugin = toolwarePlugin(new ToolHooks());
    expectTypeOf(plugin).toEqualTypeOf<ToolwarePlugin>();
    expectTypeOf(plugin).toMatchTypeOf<BasePlugin>();
    new InMemoryRunner({ agent: new LlmAgent({ name: "a", model: "gemini-2.5-flash" }), plugins: [plugin] });
  });

  it("bind and onOutcome see ADK's call typed, never any", () => {
    toolwarePlugin(new ToolHooks(), {
      bind: (call) => {
        expectTypeOf(call).toEqualTypeOf<AdkCall>();
        expectTypeOf(call.toolContext).toEqualTypeOf<Context>();
        expectTypeOf(call.tool).toEqualTypeOf<BaseTool>();
        expectTypeOf(call.callId).toEqualTypeOf<string>();
        expectTypeOf(call.input).toEqualTypeOf<Readonly<Record<string, unknown>>>();
        return undefined;
      },
      onOutcome: (outcome, call) => {
        expectTypeOf(outcome).toEqualTypeOf<ToolCallOutcome<unknown>>();
        expectTypeOf(call).toEqualTypeOf<AdkCall>();
      },
      tools: { delete_file: { destructive: true, tags: ["fs"] } },
    });
    // @ts-expect-error a misspelt option is a type error too
    toolwarePlugin(new ToolHooks(), { bnd: () => undefined });
  });

  it("adkCall reads the framework's types; adkApprovals is a human-input provider", () => {
    const read = (ctx: ToolCallHookContext) => adkCall(ctx);
    expectTypeOf(read).returns.toEqualTypeOf<AdkCall | undefined>();
    expectTypeOf(adkApprovals()).toEqualTypeOf<HumanInputProvider>();
    expectTypeOf(outcomeToResponse).returns.toEqualTypeOf<AdkToolResponse>();
    expectTypeOf<AdkToolResponse>().toEqualTypeOf<Record<string, unknown>>();
  });
});
