import type { AgentConfig } from "@mastra/core/agent";
import type { ToolCallHookContext } from "@toolware/core";
import { ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { describe, expectTypeOf, it } from "vitest";
import { type MastraCall, type MastraToolHooks, mastraCall, mastraToolware } from "./index.js";

describe("@toolware/mastra types", () => {
  const hooks = new ToolHooks();
  const tw = mastraToolware(hooks, {
    bind: (call) => {
      expectTypeOf(call).toEqualTypeOf<MastraCall>();
      return undefined;
    },
    tools: { send: { destructive: true, tags: ["mail"] } },
  });

  it("the hooks and the processor fit an Agent's config", () => {
    expectTypeOf(tw.hooks).toMatchTypeOf<NonNullable<AgentConfig["hooks"]>>();
    expectTypeOf(tw.with({ afterToolCall: async () => {} })).toEqualTypeOf<MastraToolHooks>();
    expectTypeOf([tw.processor]).toMatchTypeOf<NonNullable<AgentConfig["outputProcessors"]>>();
  });

  it("the approval fits the approval pack's external; mastraCall is typed", () => {
    approval({ external: tw.approval });
    expectTypeOf(mastraCall).parameter(0).toEqualTypeOf<ToolCallHookContext>();
    expectTypeOf(mastraCall).returns.toEqualTypeOf<MastraCall | undefined>();
  });

  it("refuses options that do not exist", () => {
    // @ts-expect-error: a typo is a type error too
    mastraToolware(hooks, { bnd: () => undefined });
    // @ts-expect-error: tags are strings
    mastraToolware(hooks, { tools: { send: { tags: [1] } } });
  });
});
