// The call boundary: bindings, inputs and tools given to invoke() and wrap(), typos and hostile values included.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Agent, Crew, defineTool, Task, type Tool, ToolHooks, toolwareCode } from "./index.js";

const junior = new Agent({ role: "junior_agent" });
const crew = new Crew({ agents: [junior] });
const task = new Task({ description: "tidy up" });
const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });

/** An app whose junior agent may not destroy anything: a typo in the bindings must never get past it. */
function guarded() {
  const hooks = new ToolHooks();
  const execute = vi.fn(() => "deleted");
  const tool = defineTool({ name: "delete_file", destructive: true, execute });
  hooks.before((ctx) => ctx.agent?.role !== "junior_agent" || !ctx.tool.destructive);
  return { hooks, tool, execute };
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TypeError);
  return { code: toolwareCode(error), message: (error as Error).message };
}

function thrown(fn: () => unknown): { code: string | undefined; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return { code: toolwareCode(error), message: (error as Error).message };
  }
  throw new Error("expected a throw");
}

describe("bindings of invoke()", () => {
  it("refuses a misspelt binding instead of running the tool with no agent", async () => {
    const { hooks, tool, execute } = guarded();
    const error = await rejection(hooks.invoke(tool, {}, { agnet: junior } as never));
    expect(error).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/^toolware: invoke\(\): unknown binding `agnet` \(did you mean `agent`\?/),
    });
    expect(execute).not.toHaveBeenCalled();
    // Spelt right, the guard applies.
    expect((await hooks.invoke(tool, {}, { agent: junior })).status).toBe("blocked");
  });

  it("names the AI SDK's abortSignal and other near misses", async () => {
    const hooks = new ToolHooks();
    const signal = new AbortController().signal;
    expect((await rejection(hooks.invoke(deleteFile, {}, { abortSignal: signal } as never))).message).toMatch(
      /unknown binding `abortSignal`: did you mean `signal`\?/,
    );
    expect((await rejection(hooks.invoke(deleteFile, {}, { crwe: crew } as never))).message).toMatch(
      /did you mean `crew`\?/,
    );
    expect((await rejection(hooks.invoke(deleteFile, {}, { role: "junior_agent" } as never))).message).toMatch(
      /bind the agent, not its role/,
    );
  });

  it("refuses bindings that are not a plain object, with a hint for the usual mistakes", async () => {
    const hooks = new ToolHooks();
    const cases: [unknown, RegExp][] = [
      [null, /got null$/],
      ["junior_agent", /got string$/],
      [junior, /got an Agent; pass the agent as \{ agent \}/],
      [crew, /pass the crew as \{ crew \}/],
      [task, /pass the task as \{ task \}/],
      [new AbortController().signal, /pass the signal as \{ signal \}/],
      [new AbortController(), /pass its signal as \{ signal: controller.signal \}/],
      [[junior], /got an array/],
      [new Map([["agent", junior]]), /got a Map/],
    ];
    for (const [bindings, message] of cases) {
      const error = await rejection(hooks.invoke(deleteFile, {}, bindings as never));
      expect(error.code).toBe("TOOLWARE_INVALID_BINDINGS");
      expect(error.message).toMatch(/^toolware: invoke\(\): the bindings must be a plain object/);
      expect(error.message).toMatch(message);
    }
  });

  it("checks the type of every binding, task and signal included", async () => {
    const hooks = new ToolHooks();
    const cases: [object, RegExp][] = [
      [
        { agent: { role: "junior_agent" } },
        /bindings.agent must be an Agent \(new Agent\(\{ role \}\)\), got an object/,
      ],
      [{ agent: null }, /bindings.agent must be an Agent .*got null/],
      [{ crew: {} }, /bindings.crew must be a Crew/],
      [{ task: { description: "tidy up" } }, /bindings.task must be a Task \(new Task\(\{ description \}\)\)/],
      [{ signal: { aborted: true } }, /bindings.signal must be an AbortSignal/],
      [{ signal: new AbortController() }, /bindings.signal must be an AbortSignal .*got an AbortController/],
    ];
    for (const [bindings, message] of cases) {
      const error = await rejection(hooks.invoke(deleteFile, {}, bindings as never));
      expect(error).toEqual({ code: "TOOLWARE_INVALID_BINDINGS", message: expect.stringMatching(message) });
    }
  });

  it("accepts every valid combination, undefined values and null-prototype objects", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[] = [];
    hooks.before((ctx) => {
      seen.push([ctx.agent, ctx.task, ctx.crew, ctx.signal.aborted]);
    });
    const signal = new AbortController().signal;
    const bare = Object.assign(Object.create(null) as object, { agent: junior, task });
    for (const bindings of [{}, { agent: undefined }, { agent: junior, task, crew, signal }, bare]) {
      expect((await hooks.invoke(deleteFile, {}, bindings)).status).toBe("ok");
    }
    expect(seen).toEqual([
      [undefined, undefined, undefined, false],
      [undefined, undefined, undefined, false],
      [junior, task, crew, false],
      [junior, task, undefined, false],
    ]);
  });

  it("reads each binding once, so a getter cannot show the check one agent and the hooks another", async () => {
    const { hooks, tool, execute } = guarded();
    const senior = new Agent({ role: "senior_agent" });
    let reads = 0;
    const bindings = {
      get agent() {
        reads++;
        return reads === 1 ? junior : senior;
      },
    };
    const outcome = await hooks.invoke(tool, {}, bindings);
    expect(reads).toBe(1);
    expect(outcome.status).toBe("blocked");
    expect(execute).not.toHaveBeenCalled();
  });

  it("ignores symbol keys and keys inherited from a polluted Object.prototype", async () => {
    const hooks = new ToolHooks();
    const polluted = Object.prototype as Record<string, unknown>;
    Object.defineProperty(polluted, "pollutedKey", { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      const outcome = await hooks.invoke(deleteFile, {}, { agent: junior, [Symbol("x")]: 1 } as never);
      expect(outcome.status).toBe("ok");
    } finally {
      delete polluted.pollutedKey;
    }
  });

  it("a hostile bindings object (throwing traps and getters) rejects, it never throws", async () => {
    const hooks = new ToolHooks();
    const trap = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    expect((await rejection(hooks.invoke(deleteFile, {}, trap as never))).code).toBe("TOOLWARE_INVALID_BINDINGS");
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = hooks.invoke(deleteFile, {}, revocable.proxy as never);
    }).not.toThrow();
    expect((await rejection(pending as Promise<unknown>)).code).toBe("TOOLWARE_INVALID_BINDINGS");
    const agentTrap = new Proxy(junior, {
      getPrototypeOf() {
        throw new Error("trap");
      },
    });
    expect((await rejection(hooks.invoke(deleteFile, {}, { agent: agentTrap }))).message).toMatch(
      /bindings.agent must be an Agent .*cannot be inspected/,
    );
    const getter = {
      get agent(): Agent {
        throw new Error("getter");
      },
    };
    await expect(hooks.invoke(deleteFile, {}, getter)).rejects.toThrow("getter");
  });

  it("property: random bindings are refused unless their keys are exactly allowed ones with valid values", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn(() => "ran");
    const tool = defineTool({ name: "t", execute });
    const allowed = new Set(["agent", "task", "crew", "signal"]);
    const types: Record<string, abstract new (...args: never[]) => unknown> = {
      agent: Agent,
      task: Task,
      crew: Crew,
      signal: AbortSignal,
    };
    const key = fc.oneof(fc.constantFrom("agent", "task", "crew", "signal", "agnet", "Agent", "signals"), fc.string());
    const value = fc.oneof(
      fc.anything(),
      fc.constantFrom(junior, task, crew, new AbortController().signal, undefined, null),
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, value, { maxKeys: 5 }), async (bindings) => {
        execute.mockClear();
        const ok = Object.entries(bindings).every(
          ([k, v]) => allowed.has(k) && (v === undefined || v instanceof (types[k] as typeof Agent)),
        );
        const settled = await hooks.invoke(tool, {}, bindings as never).then(
          (outcome) => ({ outcome, error: undefined }),
          (error: unknown) => ({ outcome: undefined, error }),
        );
        if (ok) {
          expect(settled.outcome?.status).toBe("ok");
          expect(execute).toHaveBeenCalledTimes(1);
        } else {
          expect(["TOOLWARE_UNKNOWN_OPTION", "TOOLWARE_INVALID_BINDINGS"]).toContain(toolwareCode(settled.error));
          expect(execute).not.toHaveBeenCalled();
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("inputs", () => {
  class Query {
    constructor(readonly q: string) {}
  }

  it("refuses inputs that are not plain objects, each with a clear message", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn(() => "ran");
    const tool = defineTool({ name: "lookup", execute });
    const cases: [unknown, RegExp][] = [
      [[1, 2], /got an array; put the list in a field: \{ items: \[ … \] \}/],
      [new Map([["q", 1]]), /got a Map; pass Object.fromEntries\(map\)/],
      [new Date(0), /got a Date/],
      [new Query("x"), /got a Query; pass its fields in a plain object/],
      [Object.create({ q: "inherited" }), /got an object with a custom prototype/],
      [new (class {})(), /got an object/],
      ["text", /must be an object, got string/],
      [null, /must be an object, got null/],
      [() => ({}), /must be an object, got function/],
    ];
    for (const [input, message] of cases) {
      const error = await rejection(hooks.invoke(tool, input as never));
      expect(error.code).toBe("TOOLWARE_INVALID_INPUT");
      expect(error.message).toMatch(/^toolware: invoke\(\): the input of tool lookup must be/);
      expect(error.message).toMatch(message);
    }
    expect(execute).not.toHaveBeenCalled();
  });

  it("accepts {} literals, Object.create(null) and a missing input; nested values are free", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "echo", execute: (input: object) => input });
    const bare = Object.create(null) as Record<string, unknown>;
    bare.q = "x";
    expect((await hooks.invoke(tool, bare)).raw).toBe(bare);
    expect((await hooks.invoke(tool)).raw).toEqual({});
    const nested = { list: [1], when: new Date(0), map: new Map() };
    expect((await hooks.invoke(tool, nested)).raw).toBe(nested);
  });

  it("an input whose getPrototypeOf trap throws rejects with a code and the trap's error as cause", async () => {
    const hooks = new ToolHooks();
    const cause = new Error("trap");
    const input = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw cause;
        },
      },
    );
    const error = await hooks.invoke(deleteFile, input).catch((e: unknown) => e);
    expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_INPUT");
    expect((error as Error).cause).toBe(cause);
  });

  it("property: any non-plain object input is refused; any plain one reaches the tool", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "echo", execute: (input: object) => input });
    const nonPlain = fc.oneof(
      fc.array(fc.anything()),
      fc.date().map((d) => d as object),
      fc.anything().map((v) => new Map([["v", v]])),
      fc.anything().map((v) => new Set([v])),
      fc.string().map((s) => new Query(s)),
      fc.object().map((o) => Object.create(o) as object),
      fc.constantFrom(new Uint8Array(2), /re/, new Error("e"), Promise.resolve(1), new WeakMap()),
    );
    await fc.assert(
      fc.asyncProperty(nonPlain, async (input) => {
        expect((await rejection(hooks.invoke(tool, input as never))).code).toBe("TOOLWARE_INVALID_INPUT");
      }),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.object(), async (input) => {
        expect((await hooks.invoke(tool, input)).raw).toBe(input);
      }),
      { numRuns: 100 },
    );
  });
});

describe("hand-made tools", () => {
  it("refuses blank and separator-only names as defineTool does", async () => {
    const hooks = new ToolHooks();
    for (const name of ["  ", "__", "--", "\t", " - . ", "\u200b", "*"]) {
      const execute = vi.fn();
      const error = await rejection(hooks.invoke({ name, execute } as never, {}));
      expect(error).toEqual({
        code: "TOOLWARE_INVALID_TOOL",
        message: `toolware: the tool name ${JSON.stringify(name)} is only blanks and separators; give it a letter or digit`,
      });
      expect(execute).not.toHaveBeenCalled();
      expect(thrown(() => defineTool({ name, execute })).message).toBe(error.message);
    }
    // Letters of any script, digits and emoji are names.
    for (const name of ["удалить", "検索", "7", "🔥"]) {
      expect((await hooks.invoke({ name, execute: () => "ran" } as never, {})).status).toBe("ok");
    }
  });

  it("refuses a destructive flag or tags that guards would misread", async () => {
    const hooks = new ToolHooks();
    const cases: [object, RegExp][] = [
      [{ destructive: "yes" }, /`destructive` must be true or false, got "yes"/],
      [{ destructive: 1 }, /`destructive` must be true or false, got 1/],
      [{ tags: "admin" }, /`tags` must be an array of strings, got "admin"/],
      [{ tags: [1] }, /`tags` must be an array of strings/],
      [{ description: 5 }, /`description` must be a string, got 5/],
      [{ inputSchema: { type: "object" } }, /`inputSchema` must be a Standard Schema v1 .*a JSON Schema is not one/],
      [{ inputSchema: { "~standard": { version: 2, validate: () => ({ value: {} }) } } }, /Standard Schema v1/],
    ];
    for (const [fields, message] of cases) {
      const error = await rejection(hooks.invoke({ name: "rm", execute: () => "x", ...fields } as never, {}));
      expect(error).toEqual({ code: "TOOLWARE_INVALID_TOOL", message: expect.stringMatching(message) });
      expect(error.message).toMatch(/^toolware: invoke\(\): tool rm: /);
    }
    const fine = { name: "rm", execute: () => "x", destructive: true, tags: ["fs"], inputSchema: undefined };
    expect((await hooks.invoke(fine as never, {})).status).toBe("ok");
  });

  it("says how to name a tool that other frameworks name by its key, and how to run a LangChain tool", async () => {
    const hooks = new ToolHooks();
    const aiSdkTool = { description: "weather", inputSchema: {}, execute: async () => "sunny" };
    const error = await rejection(hooks.invoke(aiSdkTool as never, {}));
    expect(error.code).toBe("TOOLWARE_INVALID_TOOL");
    expect(error.message).toMatch(/invoke\(\) got a tool with no name \(undefined\).*the AI SDK/);
    expect((await rejection(hooks.invoke({ name: "x", invoke: () => 1 } as never, {}))).message).toMatch(
      /needs a tool made with defineTool\(\).*a LangChain-style tool runs with invoke\(\)/,
    );
    expect((await rejection(hooks.invoke((() => 1) as never, {}))).message).toMatch(
      /got a function; make it one: defineTool/,
    );
  });
});

describe("wrap()", () => {
  it("checks the tool and the bindings at once, and its errors name wrap", () => {
    const hooks = new ToolHooks();
    expect(thrown(() => hooks.wrap(deleteFile, { agnet: junior } as never))).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/^toolware: wrap\(\): unknown binding `agnet` \(did you mean `agent`\?/),
    });
    expect(thrown(() => hooks.wrap(deleteFile, junior as never)).code).toBe("TOOLWARE_INVALID_BINDINGS");
    expect(thrown(() => hooks.wrap(deleteFile, { signal: "stop" } as never)).message).toMatch(
      /^toolware: wrap\(\): bindings.signal must be an AbortSignal/,
    );
    const aiSdkTool = { description: "weather", execute: async () => "sunny" };
    expect(thrown(() => hooks.wrap(aiSdkTool as never)).message).toMatch(
      /wrap\(\) got a tool with no name .*AI SDK.*hooks\.wrap\(\{ \.\.\.tool, name: "weather" \}\)/,
    );
    expect(thrown(() => hooks.wrap({} as never)).message).toMatch(/^toolware: wrap\(\) needs a tool/);
  });

  it("returns a tool whose execute takes optional options, at run time and in its type", async () => {
    const { hooks, tool, execute } = guarded();
    const wrapped = hooks.wrap(tool);
    const bound = hooks.wrap(tool, { agent: junior });
    expect(await wrapped.execute({})).toBe("deleted");
    expect(await bound.execute({})).toBe("Tool execution blocked by hook. Tool: delete_file");
    expect(await bound.execute({}, undefined)).toBe("Tool execution blocked by hook. Tool: delete_file");
    expect(execute).toHaveBeenCalledTimes(1);
    // As a plain Tool it still fits where toolware's tools go.
    const asTool: Tool<object, string> = wrapped;
    expect(asTool.destructive).toBe(true);
    expect(Object.isFrozen(wrapped)).toBe(true);
  });

  it("takes the signal from execute's options (signal, or the AI SDK's abortSignal), over a bound one", async () => {
    const hooks = new ToolHooks();
    // The tool gets the call's own signal, which follows the one chosen: abort a candidate while
    // the tool runs and see whether its signal follows.
    const seen: unknown[] = [];
    let abortWhileRunning: AbortController[] = [];
    const tool = defineTool({
      name: "t",
      execute: (_input: object, { signal }) => {
        for (const controller of abortWhileRunning) controller.abort(controller === aiSdk ? "ai-sdk" : "bound");
        seen.push(signal.aborted ? signal.reason : "not aborted");
        return "ran";
      },
    });
    const boundController = new AbortController();
    const wrapped = hooks.wrap(tool, { signal: boundController.signal });
    const own = new AbortController();
    own.abort("stop");
    expect(await wrapped.execute({}, { signal: own.signal })).toMatch(/Tool execution failed.*stop/);
    const aiSdk = new AbortController();
    abortWhileRunning = [aiSdk];
    await wrapped.execute({}, { abortSignal: aiSdk.signal, toolCallId: "c1", messages: [] } as never);
    // Over a bound one: with the AI SDK's signal given, the bound one does not reach the tool.
    const otherBound = new AbortController();
    abortWhileRunning = [otherBound];
    await hooks
      .wrap(tool, { signal: otherBound.signal })
      .execute({}, { abortSignal: new AbortController().signal, toolCallId: "c2", messages: [] } as never);
    abortWhileRunning = [boundController];
    await wrapped.execute({}, { callId: "ignored" });
    expect(seen).toEqual(["ai-sdk", "not aborted", "bound"]);
  });

  it("rejects (never throws) a wrong input or options given to execute, naming wrap", async () => {
    const hooks = new ToolHooks();
    const wrapped = hooks.wrap(deleteFile);
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = wrapped.execute([] as never);
    }).not.toThrow();
    const input = await rejection(pending as Promise<unknown>);
    expect(input).toEqual({
      code: "TOOLWARE_INVALID_INPUT",
      message: expect.stringMatching(/^toolware: wrap\(\): the input of tool delete_file must be a plain object/),
    });
    const options = await rejection(wrapped.execute({}, "fast" as never));
    expect(options).toEqual({
      code: "TOOLWARE_INVALID_BINDINGS",
      message: expect.stringMatching(/^toolware: wrap\(\): execute\(input, options\?\) takes an options object/),
    });
    expect((await rejection(wrapped.execute({}, { signal: {} } as never))).message).toMatch(
      /wrap\(\): the `signal` option of execute\(\) must be an AbortSignal/,
    );
    expect((await rejection(wrapped.execute({}, { abortSignal: 1 } as never))).message).toMatch(
      /the `abortSignal` option of execute\(\) must be an AbortSignal/,
    );
  });

  it("wraps a hand-made tool into a checked one: tags and destructive get their defaults", async () => {
    const hooks = new ToolHooks();
    const wrapped = hooks.wrap({ name: "weather", execute: async () => "sunny" } as never);
    expect(wrapped.tags).toEqual([]);
    expect(wrapped.destructive).toBe(false);
    expect(await hooks.wrap(wrapped).execute({})).toBe("sunny");
  });
});
