import { ToolHooks } from "@toolware/core";
import { dynamicTool, generateText, type InferToolInput, type InferToolOutput, tool } from "ai";
import { type ToolApprovalConfiguration, tool as tool7 } from "ai7";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type AiSdkCallContext, guardTools, toolApproval } from "./index.js";

const weather = tool({
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 21 }),
});
const lookup = dynamicTool({ inputSchema: z.object({ q: z.string() }), execute: async () => "x" });
const hooks = new ToolHooks();

describe("guardTools keeps the tool set's types", () => {
  it("ai 6: input and output generics", () => {
    const tools = guardTools(hooks, { weather, lookup });
    expectTypeOf(tools).toEqualTypeOf<{ weather: typeof weather; lookup: typeof lookup }>();
    expectTypeOf<InferToolInput<typeof tools.weather>>().toEqualTypeOf<{ city: string }>();
    expectTypeOf<InferToolOutput<typeof tools.weather>>().toEqualTypeOf<{ city: string; tempC: number }>();
    expectTypeOf(generateText<typeof tools>).toBeFunction();
  });

  it("ai 7: the set and toolApproval fit ai 7's own types", () => {
    const send = tool7({
      inputSchema: z.object({ to: z.string() }),
      contextSchema: z.object({ tenant: z.string() }),
      execute: async ({ to }) => ({ sentTo: to }),
    });
    const tools = guardTools(hooks, { send });
    expectTypeOf(tools).toEqualTypeOf<{ send: typeof send }>();
    expectTypeOf(toolApproval(tools)).toExtend<ToolApprovalConfiguration<typeof tools, Record<string, never>>>();
  });

  it("bind and onOutcome see the SDK's call context", () => {
    guardTools(
      hooks,
      { weather },
      {
        bind: (call) => {
          expectTypeOf(call).toEqualTypeOf<AiSdkCallContext>();
          expectTypeOf(call.toolCallId).toEqualTypeOf<string>();
          return undefined;
        },
      },
    );
    // @ts-expect-error a tool set is an object of tools
    guardTools(hooks, "weather");
  });

  it("`tools` takes only the set's tool names and toolware's metadata", () => {
    guardTools(
      hooks,
      { weather, lookup },
      { tools: { weather: { tags: ["read-only"] }, lookup: { destructive: false } } },
    );
    // @ts-expect-error not a tool of the set
    guardTools(hooks, { weather }, { tools: { wether: { tags: ["read-only"] } } });
    // @ts-expect-error `destructive` is a boolean
    guardTools(hooks, { weather }, { tools: { weather: { destructive: "yes" } } });
  });
});
