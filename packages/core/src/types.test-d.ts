import type { StandardSchemaV1 } from "@standard-schema/spec";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type AfterToolCallHookType,
  Agent,
  type BeforeToolCallHookType,
  type CallStatus,
  Crew,
  definePack,
  defineTool,
  type FrameworkCall,
  type HookInfo,
  type InputRejectedError,
  inputSchemaOf,
  Task,
  type Tool,
  type ToolCallHookContext,
  type ToolCallOutcome,
  ToolHooks,
  type ToolInputSchema,
  type Unregister,
  type WrappedTool,
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
    const junior = new Agent({ role: "r" });
    void hooks.invoke(search, { query: "q" }, { agent: junior, crew: new Crew() });
    // @ts-expect-error the agent must be an Agent
    void hooks.invoke(search, { query: "q" }, { agent: "researcher" });
    // @ts-expect-error a misspelt binding
    void hooks.invoke(search, { query: "q" }, { agnet: junior });
    const misspelt = { agnet: junior };
    // @ts-expect-error a bindings variable with no known key is caught too (weak type)
    void hooks.invoke(search, { query: "q" }, misspelt);
    // @ts-expect-error the signal must be an AbortSignal
    void hooks.invoke(search, { query: "q" }, { signal: "stop" });
    // @ts-expect-error the task must be a Task
    void hooks.invoke(search, { query: "q" }, { task: "tidy" });
    // @ts-expect-error bindings are an object, not the agent itself
    void hooks.invoke(search, { query: "q" }, junior);
    // @ts-expect-error wrap takes the same bindings
    hooks.wrap(search, { agnet: junior });
  });

  it("types wrap(): execute takes optional options and resolves to a string", () => {
    const wrapped = hooks.wrap(search);
    expectTypeOf(wrapped).toEqualTypeOf<WrappedTool<{ query: string; limit?: number }>>();
    expectTypeOf(wrapped.execute({ query: "q" })).toEqualTypeOf<Promise<string>>();
    void wrapped.execute({ query: "q" }, { signal: new AbortController().signal });
    void wrapped.execute({ query: "q" }, { abortSignal: new AbortController().signal, callId: "c" });
    // A wrapped tool is a tool: it can be invoked or wrapped again.
    expectTypeOf(wrapped).toExtend<Tool<{ query: string; limit?: number }, string>>();
    void hooks.invoke(wrapped, { query: "q" });
    // @ts-expect-error the input must still match the tool
    void wrapped.execute({ query: 1 });
  });

  it("types definitions: tools, entities and packs", () => {
    // @ts-expect-error destructive is a boolean
    defineTool({ name: "t", destructive: "yes", execute: () => 1 });
    // @ts-expect-error description is a string
    defineTool({ name: "t", description: 5, execute: () => 1 });
    // @ts-expect-error an inputSchema is a Standard Schema, not a JSON Schema
    defineTool({ name: "t", inputSchema: { type: "object" }, execute: () => 1 });
    // @ts-expect-error a misspelt agent option
    new Agent({ role: "a", rol: 1 });
    // @ts-expect-error CrewAI's snake_case is not toolware's
    new Task({ description: "d", expected_output: "x" });
    // @ts-expect-error a crew's agents are Agents
    new Crew({ agents: ["researcher"] });
    // @ts-expect-error stateful is a boolean
    definePack({ name: "p", hooks: [], stateful: "yes" });
    expectTypeOf(definePack({ name: "p", hooks: [], stateful: true }).stateful).toEqualTypeOf<true>();
  });

  it("types the adapter bindings: callId and framework", () => {
    void hooks.invoke(search, { query: "q" }, { callId: "call_1", framework: { name: "ai-sdk", context: {} } });
    // @ts-expect-error a call id is a string
    void hooks.invoke(search, { query: "q" }, { callId: 1 });
    // @ts-expect-error the framework needs its name
    void hooks.invoke(search, { query: "q" }, { framework: { context: {} } });
    hooks.before((ctx) => {
      expectTypeOf(ctx.callId).toEqualTypeOf<string>();
      expectTypeOf(ctx.framework).toEqualTypeOf<FrameworkCall | undefined>();
      expectTypeOf(ctx.framework?.context).toEqualTypeOf<unknown>();
      // @ts-expect-error the framework context is the adapter's: read-only for hooks
      ctx.framework = undefined;
    });
  });

  it("infers a tool's input from its inputSchema: zod, valibot and arktype", () => {
    const zodTool = defineTool({
      name: "weather",
      inputSchema: z.object({ city: z.string(), days: z.number().default(3) }),
      execute: ({ city, days }) => {
        expectTypeOf(city).toEqualTypeOf<string>();
        expectTypeOf(days).toEqualTypeOf<number>();
        return { city };
      },
    });
    expectTypeOf(zodTool).toEqualTypeOf<Tool<{ city: string; days: number }, { city: string }>>();
    const valibotTool = defineTool({
      name: "v",
      inputSchema: v.object({ n: v.number(), tag: v.optional(v.string()) }),
      execute: (input) => expectTypeOf(input).toEqualTypeOf<{ n: number; tag?: string | undefined }>(),
    });
    expectTypeOf(valibotTool).toExtend<Tool<{ n: number; tag?: string | undefined }, unknown>>();
    defineTool({
      name: "a",
      inputSchema: type({ id: "string" }),
      execute: ({ id }) => expectTypeOf(id).toEqualTypeOf<string>(),
    });
    // @ts-expect-error execute's annotation must agree with the schema
    defineTool({ name: "w", inputSchema: z.object({ city: z.string() }), execute: (i: { city: number }) => i });
    // @ts-expect-error a tool's input is an object: a schema of a string is no tool input
    defineTool({ name: "w", inputSchema: z.string(), execute: () => 1 });
  });

  it("types ctx.toolInput of hooks scoped to a tool with a schema, and the schema on the tool", () => {
    const weather = defineTool({
      name: "weather",
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => city.length,
    });
    hooks.before(
      (ctx) => {
        expectTypeOf(ctx.toolInput).toEqualTypeOf<{ city: string }>();
        expectTypeOf(ctx.rawToolResult).toEqualTypeOf<number | undefined>();
      },
      { tools: weather },
    );
    // A tool with a schema still fits every "any tool" place (filters, Agent tools).
    hooks.before(() => {}, { tools: [weather, search] });
    new Agent({ role: "r", tools: [weather, search] });
    expectTypeOf(inputSchemaOf(weather)).toEqualTypeOf<ToolInputSchema<{ city: string }> | undefined>();
    expectTypeOf(weather.inputSchema).toEqualTypeOf<ToolInputSchema | undefined>();
    expectTypeOf<InputRejectedError["issues"]>().toEqualTypeOf<readonly StandardSchemaV1.Issue[]>();
  });
});
