import { describe, expectTypeOf, it } from "vitest";
import {
  type AfterToolCallHookType,
  Agent,
  type BeforeToolCallHookType,
  type CallStatus,
  Crew,
  definePack,
  defineTool,
  type HookInfo,
  type Tool,
  type ToolCallHookContext,
  type ToolCallOutcome,
  ToolHooks,
  type Unregister,
} from "./index.js";

declare module "./types.js" {
  interface ToolCallState {
    typedField?: Date;
  }
}

const search = defineTool({
  name: "web_search",
  execute: async (input: { query: string; limit?: number }) => [{ title: input.query }],
});
const hooks = new ToolHooks();

describe("public types", () => {
  it("infers a tool's input and output", () => {
    expectTypeOf(search).toEqualTypeOf<Tool<{ query: string; limit?: number }, { title: string }[]>>();
    expectTypeOf(hooks.invoke(search, { query: "x" })).resolves.toEqualTypeOf<ToolCallOutcome<{ title: string }[]>>();
    expectTypeOf<ToolCallOutcome["status"]>().toEqualTypeOf<CallStatus>();
    // @ts-expect-error the input must match the tool's input type
    void hooks.invoke(search, { query: 1 });
  });

  it("makes toolInput readonly as a property while its contents stay mutable", () => {
    hooks.before((ctx) => {
      ctx.toolInput.query = "mutate in place is fine";
      // @ts-expect-error the property itself cannot be reassigned
      ctx.toolInput = {};
    });
  });

  it("types the context of a hook scoped to one tool", () => {
    hooks.before(
      (ctx) => {
        expectTypeOf(ctx.toolInput).toEqualTypeOf<{ query: string; limit?: number }>();
        expectTypeOf(ctx.rawToolResult).toEqualTypeOf<{ title: string }[] | undefined>();
      },
      { tools: search },
    );
    hooks.before((ctx) => {
      expectTypeOf(ctx.toolInput).toEqualTypeOf<Record<string, unknown>>();
    });
  });

  it("constrains what hooks may return", () => {
    expectTypeOf<BeforeToolCallHookType>().returns.toEqualTypeOf<
      boolean | undefined | void | Promise<boolean | undefined | void>
    >();
    // @ts-expect-error a before-hook cannot return a string
    hooks.before(() => "yes");
    // @ts-expect-error an after-hook cannot return a number
    hooks.after(() => 42);
    const after: AfterToolCallHookType = async (ctx) => ctx.toolResult?.trim();
    expectTypeOf(hooks.after(after)).toEqualTypeOf<Unregister>();
    // @ts-expect-error a middleware takes next
    hooks.use((_ctx: ToolCallHookContext, next: () => Promise<void>, _extra: number) => next());
  });

  it("types ctx.state by module augmentation", () => {
    hooks.before((ctx) => {
      expectTypeOf(ctx.state.typedField).toEqualTypeOf<Date | undefined>();
      // @ts-expect-error undeclared state fields are errors
      ctx.state.undeclared = 1;
    });
  });

  it("keeps pack extras and tells packs from hooks", () => {
    const pack = definePack({ name: "p", hooks: [], stats: () => ({ calls: 1 }) });
    expectTypeOf(pack.stats).returns.toEqualTypeOf<{ calls: number }>();
    hooks.use(pack);
    // @ts-expect-error packs go through use()
    hooks.before(pack);
    // @ts-expect-error a pack hook's kind must be known
    definePack({ name: "q", hooks: [{ kind: "around", fn: () => {} }] });
  });

  it("types the options and events", () => {
    // @ts-expect-error onError takes one of three policies
    hooks.before(() => {}, { onError: "ignore" });
    // @ts-expect-error unknown option names are errors
    hooks.before(() => {}, { tool: "x" });
    hooks.on("call:end", (e) => {
      expectTypeOf(e.outcome).toEqualTypeOf<ToolCallOutcome>();
      expectTypeOf(e.durationMs).toBeNumber();
    });
    hooks.on("hook:added", (info) => expectTypeOf(info).toEqualTypeOf<HookInfo>());
    // @ts-expect-error unknown events are errors
    hooks.on("call:done", () => {});
  });

  it("types bindings", () => {
    void hooks.invoke(search, { query: "q" }, { agent: new Agent({ role: "r" }), crew: new Crew() });
    // @ts-expect-error the agent must be an Agent
    void hooks.invoke(search, { query: "q" }, { agent: "researcher" });
  });
});
