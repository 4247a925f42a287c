import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  Crew,
  defineTool,
  scriptedHumanInput,
  Task,
  ToolCallHookContext,
  ToolHooks,
  toolwareCode,
} from "./index.js";

declare module "./types.js" {
  interface ToolCallState {
    note?: string;
  }
}

const echo = defineTool({
  name: "echo",
  execute: (input: { text: string }) => input.text,
});

describe("defineTool", () => {
  it("keeps the definition and fills defaults", () => {
    const t = defineTool({ name: "x", description: "d", execute: () => 1, tags: ["io"], destructive: true });
    expect(t).toMatchObject({ name: "x", description: "d", tags: ["io"], destructive: true });
    expect(defineTool({ name: "y", execute: () => 1 })).toMatchObject({ tags: [], destructive: false });
    expect(Object.isFrozen(t)).toBe(true);
  });

  it("rejects bad definitions with clear errors", () => {
    expect(() => defineTool({ name: "", execute: () => 1 })).toThrow(/non-empty `name`/);
    expect(() => defineTool({ name: "x" } as never)).toThrow(/needs an `execute` function/);
    expect(() => defineTool({ name: "x", execute: () => 1, formatResult: 3 } as never)).toThrow(/formatResult/);
    expect(() => defineTool({ name: "x", execute: () => 1, tags: [1] } as never)).toThrow(/tags/);
    expect(() => defineTool(null as never)).toThrow(/takes an object/);
  });
});

describe("invoke", () => {
  it("runs sync and async tools and reports ok", async () => {
    const hooks = new ToolHooks();
    const asyncTool = defineTool({ name: "later", execute: async ({ n }: { n: number }) => n * 2 });
    await expect(hooks.invoke(echo, { text: "hi" })).resolves.toMatchObject({
      status: "ok",
      result: "hi",
      raw: "hi",
      toolName: "echo",
      trace: [],
    });
    await expect(hooks.invoke(asyncTool, { n: 21 })).resolves.toMatchObject({ status: "ok", result: "42", raw: 42 });
  });

  it("passes the signal and the call id to the tool", async () => {
    const hooks = new ToolHooks();
    const seen = vi.fn();
    const tool = defineTool({ name: "t", execute: (_i, options) => seen(options) });
    const controller = new AbortController();
    const outcome = await hooks.invoke(tool, {}, { signal: controller.signal });
    expect(seen).toHaveBeenCalledWith({ signal: expect.any(AbortSignal), callId: outcome.callId });
  });

  it("gives the tool the call's own signal, which follows the caller's while the call runs", async () => {
    // Listeners of hooks and tools land on it, never on a signal the caller shares between calls.
    const hooks = new ToolHooks();
    let received: AbortSignal | undefined;
    const waiting = defineTool({
      name: "w",
      execute: (_i, { signal }) =>
        new Promise((_, reject) => {
          received = signal;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    });
    const controller = new AbortController();
    const pending = hooks.invoke(waiting, {}, { signal: controller.signal });
    expect(received?.aborted).toBe(false);
    controller.abort("cancelled by the user");
    expect(received?.reason).toBe("cancelled by the user");
    await expect(pending).resolves.toMatchObject({ status: "error", error: "cancelled by the user" });
    // Once the call has ended it follows nothing: the caller's signal keeps no listener of it.
    const later = new AbortController();
    await hooks.invoke(defineTool({ name: "x", execute: (_i, { signal }) => signal }), {}, { signal: later.signal });
    expect(getEventListeners(later.signal, "abort")).toHaveLength(0);
  });

  it("does not start the tool of a call cancelled before it runs", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn();
    const controller = new AbortController();
    hooks.before(() => controller.abort(new Error("user pressed stop")));
    const outcome = await hooks.invoke(defineTool({ name: "t", execute }), {}, { signal: controller.signal });
    expect(execute).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({
      status: "error",
      result: "Tool execution failed. Tool: t. Error: user pressed stop",
    });
  });

  it("gives every call its own id", async () => {
    const hooks = new ToolHooks();
    const ids = await Promise.all([1, 2, 3].map(() => hooks.invoke(echo, { text: "" }).then((o) => o.callId)));
    expect(new Set(ids).size).toBe(3);
  });

  it("defaults a missing input to an empty object", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "t", execute: (input: Record<string, unknown>) => Object.keys(input).length });
    await expect(hooks.invoke(tool)).resolves.toMatchObject({ raw: 0 });
  });

  it("rejects what it cannot run, with clear errors", async () => {
    const hooks = new ToolHooks();
    await expect(hooks.invoke({} as never, {})).rejects.toThrow(/needs a tool made with defineTool/);
    await expect(hooks.invoke({ name: "", execute: () => 1 } as never, {})).rejects.toThrow(/no name/);
    await expect(hooks.invoke(echo, "text" as never)).rejects.toThrow(
      /input of tool echo must be an object, got string/,
    );
    await expect(hooks.invoke(echo, { text: "" }, { agent: { role: "x" } as never })).rejects.toThrow(
      /bindings.agent must be an Agent/,
    );
    await expect(hooks.invoke(echo, { text: "" }, { crew: {} as never })).rejects.toThrow(
      /bindings.crew must be a Crew/,
    );
  });

  it("rejects unknown options", () => {
    expect(() => new ToolHooks({ onHookErrors: "block" } as never)).toThrow(/unknown ToolHooks option `onHookErrors`/);
    expect(() => new ToolHooks({ onHookError: "ignore" } as never)).toThrow(/`onHookError` must be/);
  });
});

describe("result formatting", () => {
  it("formats strings as they are, objects as compact JSON, undefined as empty", async () => {
    const hooks = new ToolHooks();
    const results: unknown[] = ["plain", { a: 1, b: [1, 2] }, undefined, 7, null, true, 10n];
    const expected = ["plain", '{"a":1,"b":[1,2]}', "", "7", "null", "true", '"10"'];
    for (const [i, value] of results.entries()) {
      const tool = defineTool({ name: "t", execute: () => value });
      const outcome = await hooks.invoke(tool, {});
      expect(outcome.result).toBe(expected[i]);
      expect(outcome.raw).toBe(value);
    }
  });

  it("uses the tool's formatResult for non-strings", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({
      name: "rows",
      execute: () => [{ id: 1 }, { id: 2 }],
      formatResult: (rows) => rows.map((r) => `- ${r.id}`).join("\n"),
    });
    await expect(hooks.invoke(tool, {})).resolves.toMatchObject({ result: "- 1\n- 2", raw: [{ id: 1 }, { id: 2 }] });
  });

  it("turns an unformattable result into an error outcome", async () => {
    const hooks = new ToolHooks();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const outcome = await hooks.invoke(defineTool({ name: "c", execute: () => cyclic }), {});
    // The tool ran (its side effects happened): not "Tool execution failed", and raw keeps the value.
    expect(outcome).toMatchObject({ status: "error", raw: cyclic });
    expect(outcome.result).toMatch(/^Tool ran but its result could not be formatted\. Tool: c\. Error: .*circular/i);
    expect(toolwareCode(outcome.error)).toBe("TOOLWARE_UNSERIALIZABLE_RESULT");
    expect(outcome.trace).toMatchObject([{ hook: "c", kind: "tool", action: "format-failed" }]);
  });

  it("keeps rawToolResult unchanged while after-hooks rewrite toolResult", async () => {
    const hooks = new ToolHooks();
    const raws: unknown[] = [];
    hooks.after((ctx) => {
      raws.push(ctx.rawToolResult);
      return "rewritten";
    });
    hooks.after((ctx) => {
      raws.push(ctx.rawToolResult);
      return `${ctx.toolResult}!`;
    });
    const tool = defineTool({ name: "obj", execute: () => ({ x: 1 }) });
    const outcome = await hooks.invoke(tool, {});
    expect(outcome).toMatchObject({ result: "rewritten!", raw: { x: 1 } });
    expect(raws).toEqual([{ x: 1 }, { x: 1 }]);
  });
});

describe("context", () => {
  it("exposes the call to every hook", async () => {
    const agent = new Agent({ role: "researcher" });
    const task = new Task({ description: "find things" });
    const crew = new Crew({ agents: [agent], tasks: [task] });
    const hooks = new ToolHooks();
    let seen: ToolCallHookContext | undefined;
    hooks.before((ctx) => {
      seen = ctx;
      expect(ctx.toolResult).toBeUndefined();
      expect(ctx.rawToolResult).toBeUndefined();
      expect(ctx.toolRan).toBe(false);
    });
    const outcome = await hooks.invoke(echo, { text: "a" }, { agent, task, crew });
    expect(seen).toBeInstanceOf(ToolCallHookContext);
    expect(seen).toMatchObject({ toolName: "echo", tool: echo, agent, task, crew, callId: outcome.callId });
    expect(seen?.toolInput).toEqual({ text: "a" });
    expect(seen?.toolRan).toBe(true);
  });

  it("lets hooks mutate the input in place, and the tool receives the mutation", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.toolInput.text = String(ctx.toolInput.text).toUpperCase();
    });
    hooks.before((ctx) => {
      ctx.toolInput.text = `${ctx.toolInput.text}!`;
    });
    await expect(hooks.invoke(echo, { text: "hi" })).resolves.toMatchObject({ result: "HI!" });
  });

  it("tracks nested mutations and deletions as input modifications", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "nested", execute: (input: { opts: { depth: number }; extra?: number }) => input });
    hooks.before((ctx) => {
      (ctx.toolInput as { opts: { depth: number } }).opts.depth = 3;
    });
    hooks.before((ctx) => {
      delete ctx.toolInput.extra;
    });
    hooks.before(() => {});
    const outcome = await hooks.invoke(tool, { opts: { depth: 1 }, extra: 1 });
    expect(outcome.raw).toEqual({ opts: { depth: 3 } });
    expect(outcome.trace.map((t) => t.action)).toEqual(["modified-input", "modified-input", "proceeded"]);
  });

  it("forbids replacing the input, with a message that says to mutate in place", async () => {
    const hooks = new ToolHooks({ onHookError: "throw" });
    hooks.before((ctx) => {
      (ctx as { toolInput: unknown }).toolInput = { text: "replaced" };
    });
    const error = await hooks.invoke(echo, { text: "a" }).catch((e: Error) => e);
    expect((error as Error & { cause: Error }).cause).toBeInstanceOf(TypeError);
    expect((error as Error & { cause: Error }).cause.message).toMatch(/cannot be reassigned; mutate it in place/);
  });

  it("never lets a hook's view of the input leak proxies into what the tool receives", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      const input = ctx.toolInput as { a: { n: number }; b?: { n: number }; list: object[] };
      input.b = input.a;
      input.list.push(input.a);
      Object.defineProperty(input, "c", { value: input.a, enumerable: true, configurable: true, writable: true });
    });
    const tool = defineTool({ name: "clone", execute: (input: Record<string, unknown>) => structuredClone(input) });
    const outcome = await hooks.invoke(tool, { a: { n: 1 }, list: [] });
    expect(outcome.status).toBe("ok");
    expect(outcome.raw).toEqual({ a: { n: 1 }, b: { n: 1 }, list: [{ n: 1 }], c: { n: 1 } });
  });

  it("keeps Maps, Dates and class instances in the input usable", async () => {
    const hooks = new ToolHooks();
    const input = { when: new Date(0), tags: new Map([["a", 1]]) };
    hooks.before((ctx) => {
      (ctx.toolInput.tags as Map<string, number>).set("b", 2);
      expect((ctx.toolInput.when as Date).getTime()).toBe(0);
    });
    const tool = defineTool({ name: "m", execute: (i: typeof input) => i.tags.size });
    await expect(hooks.invoke(tool, input)).resolves.toMatchObject({ raw: 2, status: "ok" });
  });

  it("shares state between the hooks of one call, and only that call", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.state.note = `${ctx.toolInput.text}`;
    });
    hooks.after((ctx) => `${ctx.toolResult} (${ctx.state.note})`);
    const [a, b] = await Promise.all([hooks.invoke(echo, { text: "a" }), hooks.invoke(echo, { text: "b" })]);
    expect(a.result).toBe("a (a)");
    expect(b.result).toBe("b (b)");
  });

  it("asks a human through the instance's provider", async () => {
    const human = scriptedHumanInput(["yes"]);
    const hooks = new ToolHooks({ humanInput: human });
    let answer = "";
    hooks.before(async (ctx) => {
      answer = await ctx.requestHumanInput("Approve?", "Type yes");
    });
    const outcome = await hooks.invoke(echo, { text: "a" });
    expect(answer).toBe("yes");
    expect(human.requests).toMatchObject([
      { prompt: "Approve?", defaultMessage: "Type yes", toolName: "echo", callId: outcome.callId },
    ]);
  });

  it("links extra abort signals to the tool's signal", async () => {
    const hooks = new ToolHooks();
    const extra = new AbortController();
    hooks.before((ctx) => ctx.linkSignal(extra.signal));
    const tool = defineTool({
      name: "s",
      execute: (_i, { signal }) => {
        extra.abort(new Error("stop"));
        return signal.aborted;
      },
    });
    await expect(hooks.invoke(tool, {})).resolves.toMatchObject({ raw: true });
  });
});

describe("wrapExecution", () => {
  it("runs the tool through wrappers, first added outermost, each able to re-run it", async () => {
    const hooks = new ToolHooks();
    const order: string[] = [];
    let attempts = 0;
    hooks.before((ctx) =>
      ctx.wrapExecution(async (execute) => {
        order.push("outer in");
        const result = await execute();
        order.push("outer out");
        return result;
      }),
    );
    hooks.before((ctx) =>
      ctx.wrapExecution(async (execute) => {
        try {
          return await execute();
        } catch {
          order.push("retry");
          return execute();
        }
      }),
    );
    const flaky = defineTool({
      name: "flaky",
      execute: () => {
        attempts++;
        if (attempts === 1) throw new Error("first try fails");
        return "second try";
      },
    });
    await expect(hooks.invoke(flaky, {})).resolves.toMatchObject({ status: "ok", result: "second try" });
    expect(order).toEqual(["outer in", "retry", "outer out"]);
  });

  it("hands each wrapper the signal chosen outside it, and combines the signals it passes down", async () => {
    const hooks = new ToolHooks();
    const call = new AbortController();
    let innerSaw: AbortSignal | undefined;
    let toolSaw: AbortSignal | undefined;
    hooks.before((ctx) =>
      ctx.wrapExecution((execute) => {
        const outer = new AbortController();
        outer.abort(new Error("outer gave up"));
        return execute(outer.signal);
      }),
    );
    hooks.before((ctx) =>
      ctx.wrapExecution((execute, _ctx, signal) => {
        innerSaw = signal;
        return execute(new AbortController().signal);
      }),
    );
    const tool = defineTool({
      name: "t",
      execute: (_i, { signal }) => {
        toolSaw = signal;
        return "ran";
      },
    });
    await hooks.invoke(tool, {}, { signal: call.signal });
    expect(innerSaw?.aborted).toBe(true);
    expect(toolSaw?.aborted).toBe(true);
    expect(toolSaw?.reason).toEqual(new Error("outer gave up"));
  });

  it("refuses wrappers added once the tool has started", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    let error: unknown;
    hooks.after((ctx) => {
      try {
        ctx.wrapExecution((execute) => execute());
      } catch (e) {
        error = e;
      }
    });
    await hooks.invoke(echo, { text: "x" });
    expect(String(error)).toMatch(/wrapExecution\(\) must be called before the tool runs/);
  });
});

describe("wrap", () => {
  it("returns a tool of the same shape whose execute resolves to the agent-facing result", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "r" });
    const agentsSeen: unknown[] = [];
    hooks.before((ctx) => {
      agentsSeen.push(ctx.agent);
    });
    hooks.before((ctx) => ctx.toolInput.text !== "forbidden");
    const wrapped = hooks.wrap(echo, { agent });
    expect(wrapped).toMatchObject({ name: "echo", tags: [], destructive: false });
    const signal = new AbortController().signal;
    await expect(wrapped.execute({ text: "ok" }, { signal, callId: "x" })).resolves.toBe("ok");
    await expect(wrapped.execute({ text: "forbidden" }, { signal, callId: "y" })).resolves.toBe(
      "Tool execution blocked by hook. Tool: echo",
    );
    expect(agentsSeen).toEqual([agent, agent]);
  });
});
