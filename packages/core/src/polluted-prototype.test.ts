// A polluted Object.prototype (an enumerable `agent`, `signal`, `callId`… put there by prototype
// pollution elsewhere in the process) must bind no call: only the bindings' own properties count,
// in invoke and wrap, with and without bindings, and for the framework's `name` and `context` too.
import { describe, expect, it } from "vitest";
import {
  Agent,
  Crew,
  defineTool,
  type FrameworkCall,
  Task,
  type ToolCallHookContext,
  ToolHooks,
  toolwareCode,
} from "./index.js";

type Key = "agent" | "task" | "crew" | "signal" | "callId" | "framework" | "name" | "context";

// Runs `run` with `key` set on Object.prototype as an assignment would set it (enumerable), then restores it.
async function polluted<T>(key: Key, value: unknown, run: () => Promise<T>): Promise<T> {
  const proto = Object.prototype as Record<string, unknown>;
  const had = Object.getOwnPropertyDescriptor(proto, key);
  proto[key] = value;
  try {
    return await run();
  } finally {
    if (had === undefined) delete proto[key];
    else Object.defineProperty(proto, key, had);
  }
}

const echo = defineTool({ name: "echo", execute: (_input: object, { callId }) => callId });

// An agent, a crew and a task whose layers block every call: a call bound to one of them is blocked.
function blockers() {
  const agent = new Agent({ role: "polluter" });
  agent.before(() => false);
  const crew = new Crew({ name: "polluters" });
  crew.before(() => false);
  const task = new Task({ description: "polluted" });
  return { agent, crew, task };
}

describe("a polluted Object.prototype binds no call", () => {
  it("invoke: an inherited agent or crew is not the call's, with or without bindings (0-hook path)", async () => {
    const hooks = new ToolHooks();
    const { agent, crew } = blockers();
    const own = new Crew({ name: "own" });
    for (const [key, value] of [
      ["agent", agent],
      ["crew", crew],
    ] as const) {
      const outcomes = await polluted(key, value, () =>
        Promise.all([
          hooks.invoke(echo, {}),
          hooks.invoke(echo, {}, {}),
          hooks.invoke(echo, {}, key === "agent" ? { crew: own } : { agent: new Agent({ role: "own" }) }),
          hooks.invoke(echo, {}, Object.assign(Object.create(null) as object, {})),
        ]),
      );
      for (const outcome of outcomes) expect(outcome.status, key).toBe("ok");
    }
  });

  it("invoke: hooks see no inherited agent, crew, task, signal, call id or framework", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[][] = [];
    hooks.before((ctx: ToolCallHookContext) => {
      seen.push([ctx.agent, ctx.crew, ctx.task, ctx.signal.aborted, ctx.framework]);
    });
    const { agent, crew, task } = blockers();
    const values: [Key, unknown][] = [
      ["agent", agent],
      ["crew", crew],
      ["task", task],
      ["signal", AbortSignal.abort("polluted")],
      ["callId", "polluted-id"],
      ["framework", { name: "polluted", context: 1 }],
    ];
    for (const [key, value] of values) {
      const outcomes = await polluted(key, value, () =>
        Promise.all([hooks.invoke(echo, {}), hooks.invoke(echo, {}, { callId: `own-${key}` })]),
      );
      expect(outcomes.map((o) => o.status)).toEqual(["ok", "ok"]);
      expect(outcomes[0]?.callId).not.toBe("polluted-id");
      expect(outcomes[0]?.result).toBe(outcomes[0]?.callId);
      expect(outcomes[1]?.callId).toBe(`own-${key}`);
    }
    expect(seen).toHaveLength(values.length * 2);
    for (const entry of seen) expect(entry).toEqual([undefined, undefined, undefined, false, undefined]);
  });

  it("invoke: an inherited key is no unknown binding either", async () => {
    const hooks = new ToolHooks();
    const outcome = await polluted("name", "x", () => hooks.invoke(echo, {}, { callId: "c1" }));
    expect(outcome).toMatchObject({ status: "ok", callId: "c1" });
  });

  it("wrap: neither the bindings given to wrap nor the default ones pick up an inherited key", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[][] = [];
    hooks.before((ctx: ToolCallHookContext) => void seen.push([ctx.agent?.role, ctx.crew?.name, ctx.signal.aborted]));
    const { agent } = blockers();
    const own = new Crew({ name: "own" });
    const plain = hooks.wrap(echo);
    const bound = hooks.wrap(echo, { crew: own });
    const results = await polluted("agent", agent, () =>
      Promise.all([plain.execute({}), bound.execute({}), hooks.wrap(echo, {}).execute({})]),
    );
    await polluted("signal", AbortSignal.abort("polluted"), () =>
      Promise.all([plain.execute({}), hooks.wrap(echo, { crew: own }).execute({})]),
    );
    // A call id on Object.prototype is no call id given to wrap (which refuses one).
    const late = await polluted("callId", "polluted-id", async () => hooks.wrap(echo, {}));
    const id = await late.execute({});
    expect(id).not.toBe("polluted-id");
    expect(results.every((r) => typeof r === "string" && !r.includes("blocked"))).toBe(true);
    expect(seen).toEqual([
      [undefined, undefined, false],
      [undefined, "own", false],
      [undefined, undefined, false],
      [undefined, undefined, false],
      [undefined, "own", false],
      [undefined, undefined, false],
    ]);
  });

  it("framework: an inherited context is not the framework's, an inherited name names no framework", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[] = [];
    hooks.before((ctx: ToolCallHookContext) => void seen.push(ctx.framework));
    const outcome = await polluted("context", "polluted", () =>
      hooks.invoke(echo, {}, { framework: { name: "ai-sdk" } as FrameworkCall }),
    );
    expect(outcome.status).toBe("ok");
    expect(seen).toEqual([{ name: "ai-sdk", context: undefined }]);
    const refused = await polluted("name", "polluted", () =>
      hooks.invoke(echo, {}, { framework: { context: 1 } as unknown as FrameworkCall }).then(
        () => undefined,
        (error: unknown) => error,
      ),
    );
    expect(toolwareCode(refused)).toBe("TOOLWARE_INVALID_BINDINGS");
    expect(String(refused)).toMatch(/bindings\.framework\.name must be/);
    await expect(
      polluted("name", "polluted", async () =>
        hooks.wrap(echo, { framework: { context: 1 } as unknown as FrameworkCall }),
      ),
    ).rejects.toThrow(/bindings\.framework\.name must be/);
    expect(Object.hasOwn(Object.prototype, "name")).toBe(false);
  });
});
