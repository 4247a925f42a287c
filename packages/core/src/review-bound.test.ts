// Bindings are read once and checked into a copy of their own (call-args.ts readBindings). Hostile
// bindings whose getters or Proxy traps start other calls while they are read must still leave every call
// with its own agent, crew, signal and call id, and a later call without bindings with none.
import { describe, expect, it } from "vitest";
import { Agent, type CallBindings, Crew, defineTool, type ToolCallHookContext, ToolHooks } from "./index.js";

const alice = new Agent({ role: "alice" });
const bob = new Agent({ role: "bob" });
const crew = new Crew({ agents: [bob] });

function setup() {
  const hooks = new ToolHooks();
  const seen: { id: string; agent?: string; crew: boolean; signal: boolean }[] = [];
  // A plain before-hook makes the chain non-empty, so every call builds a context from the bindings.
  hooks.before((ctx: ToolCallHookContext) => {
    seen.push({ id: ctx.callId, agent: ctx.agent?.role, crew: ctx.crew !== undefined, signal: !ctx.signal.aborted });
  });
  const tool = defineTool({ name: "who", execute: (_input: object, { callId }) => callId });
  return { hooks, tool, seen };
}

describe("bindings read through the shared slot", () => {
  it("a getter that starts another call while the bindings are read keeps each call's own agent", async () => {
    const { hooks, tool, seen } = setup();
    let inner: Promise<unknown> | undefined;
    const bindings = {
      get agent() {
        inner = hooks.invoke(tool, {}, { agent: bob, crew, callId: "inner-1" });
        return alice;
      },
      callId: "outer-1",
    } as CallBindings;
    const outer = await hooks.invoke(tool, {}, bindings);
    await inner;
    expect(outer.result).toBe("outer-1");
    const byId = Object.fromEntries(seen.map((s) => [s.id, s]));
    expect(byId["outer-1"]).toMatchObject({ agent: "alice", crew: false });
    expect(byId["inner-1"]).toMatchObject({ agent: "bob", crew: true });
  });

  it("a Proxy whose get trap starts a call for every key read still binds the outer call alone", async () => {
    const { hooks, tool, seen } = setup();
    const pending: Promise<unknown>[] = [];
    const target: Record<string, unknown> = { agent: alice, callId: "outer-2" };
    const bindings = new Proxy(target, {
      get(t, key) {
        pending.push(hooks.invoke(tool, {}, { agent: bob, crew, callId: `inner-${String(key)}` }));
        return Reflect.get(t, key);
      },
    }) as CallBindings;
    const outer = await hooks.invoke(tool, {}, bindings);
    await Promise.all(pending);
    expect(outer.result).toBe("outer-2");
    expect(pending.length).toBeGreaterThan(0);
    for (const s of seen)
      expect(s).toMatchObject(s.id === "outer-2" ? { agent: "alice", crew: false } : { agent: "bob" });
  });

  it("a getter that starts a call and then throws fails the outer call only; the slot keeps nothing", async () => {
    const { hooks, tool, seen } = setup();
    let inner: Promise<unknown> | undefined;
    const bindings = {
      get agent() {
        inner = hooks.invoke(tool, {}, { agent: bob, callId: "inner-3" });
        throw new Error("getter");
      },
    } as CallBindings;
    await expect(hooks.invoke(tool, {}, bindings)).rejects.toThrow("getter");
    await inner;
    const after = await hooks.invoke(tool, {});
    expect(seen.find((s) => s.id === "inner-3")).toMatchObject({ agent: "bob" });
    expect(seen.find((s) => s.id === after.callId)).toMatchObject({ agent: undefined, crew: false });
  });

  it("bindings rejected by their check, after a getter bound a call, leave no agent to the next call", async () => {
    const { hooks, tool, seen } = setup();
    await hooks.invoke(tool, {}, { agent: alice, crew });
    await expect(hooks.invoke(tool, {}, { agent: bob, task: 42 } as unknown as CallBindings)).rejects.toThrow(
      TypeError,
    );
    const plain = await hooks.invoke(tool, {});
    expect(seen.map((s) => s.agent)).toEqual(["alice", undefined]);
    expect(seen[1]).toMatchObject({ id: plain.callId, crew: false });
  });

  it("a tool that invokes with bindings from inside a sync chain keeps the outer call's bindings", async () => {
    const hooks = new ToolHooks();
    const roles: string[] = [];
    hooks.before((ctx) => void roles.push(`${ctx.toolName}:${ctx.agent?.role}`));
    const leaf = defineTool({ name: "leaf", execute: () => "leaf" });
    const parent = defineTool({
      name: "parent",
      execute: () => {
        void hooks.invoke(leaf, {}, { agent: bob });
        return "parent";
      },
    });
    const outcome = await hooks.invoke(parent, {}, { agent: alice });
    await new Promise((r) => setTimeout(r, 0));
    expect(outcome.result).toBe("parent");
    expect(roles).toEqual(["parent:alice", "leaf:bob"]);
  });
});
