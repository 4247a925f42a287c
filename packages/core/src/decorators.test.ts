import { afterEach, describe, expect, it } from "vitest";
import {
  afterToolCall,
  afterToolCallCrew,
  beforeToolCall,
  beforeToolCallCrew,
  Crew,
  clearAllToolCallHooks,
  defaultToolHooks,
  defineTool,
  getBeforeToolCallHooks,
  type ToolCallHookContext,
  ToolHooks,
  unregisterBeforeToolCallHook,
} from "./index.js";

const search = defineTool({ name: "web_search", execute: (input: { query?: string }) => `results for ${input.query}` });

afterEach(() => {
  clearAllToolCallHooks();
});

describe("decorators on free functions", () => {
  it("registers globally on the default instance and returns the function", async () => {
    const fn = (ctx: ToolCallHookContext) => ctx.toolName !== "drop_table";
    expect(beforeToolCall(fn)).toBe(fn);
    expect(getBeforeToolCallHooks()).toEqual([fn]);
    const outcome = await defaultToolHooks.invoke(defineTool({ name: "drop_table", execute: () => 1 }), {});
    expect(outcome.status).toBe("blocked");
  });

  it("takes filters, and unregistering the original function works (CrewAI cannot)", async () => {
    const fn = () => false;
    expect(beforeToolCall({ tools: ["delete_file"], priority: 2 })(fn)).toBe(fn);
    expect(defaultToolHooks.list()[0]).toMatchObject({ priority: 2, tools: ["delete_file"] });
    expect((await defaultToolHooks.invoke(search, {})).status).toBe("ok");
    expect(unregisterBeforeToolCallHook(fn)).toBe(true);
    expect(getBeforeToolCallHooks()).toEqual([]);
  });

  it("registers on another instance when asked", async () => {
    const hooks = new ToolHooks();
    afterToolCall({ hooks })((ctx) => `${ctx.toolResult}!`);
    expect(defaultToolHooks.list()).toEqual([]);
    await expect(hooks.invoke(search, { query: "q" })).resolves.toMatchObject({ result: "results for q!" });
  });

  it("refuses the crew-only decorators on free functions and bad arguments", () => {
    expect(() => beforeToolCallCrew((() => {}) as never, undefined as never)).toThrow(
      /decorates methods of a Crew class; use beforeToolCall\(\) for free functions/,
    );
    expect(() => beforeToolCall(42 as never)).toThrow(/takes a function or an options object/);
    expect(() => beforeToolCall({ hooks: {} as never })).toThrow(/`hooks` must be a ToolHooks, Crew or Agent/);
  });
});

describe("decorators on crew methods", () => {
  class ResearchCrew extends Crew {
    readonly log: string[] = [];

    @beforeToolCallCrew
    validateToolInputs(ctx: ToolCallHookContext) {
      if (ctx.toolName === "web_search" && !ctx.toolInput.query) {
        this.log.push("❌ Invalid search query");
        return false;
      }
      return undefined;
    }

    @afterToolCallCrew
    logToolResults(ctx: ToolCallHookContext) {
      this.log.push(`✅ ${ctx.toolName} completed`);
      return undefined;
    }

    @beforeToolCall({ tools: "web_search", priority: 1 })
    lowercase(ctx: ToolCallHookContext) {
      if (typeof ctx.toolInput.query === "string") ctx.toolInput.query = ctx.toolInput.query.toLowerCase();
    }

    @afterToolCall
    tag(ctx: ToolCallHookContext) {
      return `[${this.name}] ${ctx.toolResult}`;
    }
  }

  it("registers bound methods on that crew instance only, never globally", async () => {
    const hooks = new ToolHooks();
    const one = new ResearchCrew({ name: "one" });
    const two = new ResearchCrew({ name: "two" });
    expect(defaultToolHooks.list()).toEqual([]);
    expect(one.list().map((h) => h.name)).toEqual(["validateToolInputs", "logToolResults", "lowercase", "tag"]);

    await expect(hooks.invoke(search, { query: "CATS" }, { crew: one })).resolves.toMatchObject({
      result: "[one] results for cats",
    });
    await expect(hooks.invoke(search, {}, { crew: two })).resolves.toMatchObject({ status: "blocked" });
    expect(one.log).toEqual(["✅ web_search completed"]);
    expect(two.log).toEqual(["❌ Invalid search query", "✅ web_search completed"]);
    await expect(hooks.invoke(search, { query: "X" })).resolves.toMatchObject({ result: "results for X" });
  });

  it("removes the decorated hooks when the crew is disposed", async () => {
    const hooks = new ToolHooks();
    const crew = new ResearchCrew();
    expect(crew.dispose()).toBe(4);
    await expect(hooks.invoke(search, {}, { crew })).resolves.toMatchObject({ status: "ok" });
  });

  it("supports `using` disposal", async () => {
    const hooks = new ToolHooks();
    let kept: ResearchCrew | undefined;
    {
      using crew = new ResearchCrew();
      kept = crew;
      expect(crew.list()).toHaveLength(4);
    }
    expect(kept.list()).toHaveLength(0);
    expect((await hooks.invoke(search, {}, { crew: kept })).status).toBe("ok");
  });

  it("fails clearly on a class that is not a Crew", () => {
    class NotACrew {
      // @ts-expect-error the crew decorators only type-check on classes that extend Crew
      @beforeToolCallCrew
      check(_ctx: ToolCallHookContext) {}
    }
    expect(() => new NotACrew()).toThrow(/@beforeToolCallCrew on check needs a class that extends Crew/);
  });
});
