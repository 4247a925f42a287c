// A stateful pack registered twice on one layer would count every call twice: refused, with the way out.
import { describe, expect, it } from "vitest";
import { Agent, Crew, definePack, defineTool, type Pack, ToolHooks, toolwareCode } from "./index.js";

function counter(stateful = true) {
  let calls = 0;
  return definePack({
    name: "counter",
    stateful,
    hooks: [
      {
        kind: "before",
        fn: function count() {
          calls++;
        },
      },
    ],
    calls: () => calls,
  });
}

const tool = defineTool({ name: "t", execute: () => "ran" });

function refusal(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("stateful packs", () => {
  it("refuses the same instance twice on one layer, saying how to get independent state", async () => {
    const hooks = new ToolHooks();
    const pack = counter();
    hooks.use(pack);
    const error = refusal(() => hooks.use(pack, { name: "again", tools: "t" }));
    expect(error).toBeInstanceOf(TypeError);
    expect(toolwareCode(error)).toBe("TOOLWARE_DUPLICATE_PACK");
    expect(error.message).toMatch(/^toolware: the pack counter is already registered on this global layer/);
    expect(error.message).toMatch(/call the pack's factory again, once per registration/);
    expect(error.message).toMatch(/remove it first \(layer\.remove\(pack\)\)/);
    // The refused registration left nothing behind.
    expect(hooks.list()).toHaveLength(1);
    await hooks.invoke(tool, {});
    expect(pack.calls()).toBe(1);
  });

  it("allows it again once removed, and separate instances side by side", () => {
    const hooks = new ToolHooks();
    const pack = counter();
    const off = hooks.use(pack);
    off();
    expect(() => hooks.use(pack)).not.toThrow();
    hooks.remove(pack);
    expect(() => hooks.use(pack)).not.toThrow();
    expect(() => hooks.use(counter())).not.toThrow();
    expect(hooks.list()).toHaveLength(2);
  });

  it("shares one instance's state across ToolHooks and across layers no call merges", async () => {
    const a = new ToolHooks();
    const b = new ToolHooks();
    const junior = new Agent({ role: "junior" });
    const senior = new Agent({ role: "senior" });
    const pack = counter();
    a.use(pack);
    b.use(pack);
    junior.use(pack);
    senior.use(pack);
    await a.invoke(tool, {});
    await b.invoke(tool, {});
    await new ToolHooks().invoke(tool, {}, { agent: junior });
    await new ToolHooks().invoke(tool, {}, { agent: senior });
    expect(pack.calls()).toBe(4);
  });

  it("refuses a call whose layers hold one instance twice (global and agent, crew and agent): it would count twice", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "r" });
    const crew = new Crew({ name: "c" });
    const pack = counter();
    let ran = 0;
    const counted = defineTool({
      name: "t",
      execute: () => {
        ran++;
        return "ran";
      },
    });
    hooks.use(pack);
    agent.use(pack);
    const error = await hooks.invoke(counted, {}, { agent }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(toolwareCode(error)).toBe("TOOLWARE_DUPLICATE_PACK");
    expect(error?.message).toMatch(/^toolware: the pack counter is registered on both the global and the agent layer/);
    expect(error?.message).toMatch(/call the pack's factory again for each layer/);
    // Refused before any hook ran: nothing counted, the tool did not run.
    expect([pack.calls(), ran]).toEqual([0, 0]);
    // The agent's layer alone, or the global one alone, is fine; so is a fresh instance on each.
    expect((await new ToolHooks().invoke(counted, {}, { agent })).status).toBe("ok");
    expect((await hooks.invoke(counted, {})).status).toBe("ok");
    // explain() still shows what the call would run, so the mistake can be seen.
    expect(hooks.explain({ toolName: "t", agent }).map((h) => h.layer)).toEqual(["global", "agent"]);
    agent.remove(pack);
    crew.use(pack);
    agent.use(counter());
    expect(toolwareCode(await new ToolHooks().invoke(counted, {}, { agent, crew }).catch((e) => e))).toBeUndefined();
    hooks.remove(pack);
    expect((await hooks.invoke(counted, {}, { agent, crew })).status).toBe("ok");
    crew.use(counter());
    agent.use(pack);
    expect(toolwareCode(await hooks.invoke(counted, {}, { agent, crew }).catch((e) => e))).toBe(
      "TOOLWARE_DUPLICATE_PACK",
    );
  });

  it("a spread copy (as the conditional pack makes) shares the state, so it is refused beside the original", () => {
    const hooks = new ToolHooks();
    const pack = counter();
    const copy = definePack({ ...(pack as object), name: pack.name, hooks: pack.hooks }) as Pack;
    expect(copy).not.toBe(pack);
    hooks.use(pack);
    expect(toolwareCode(refusal(() => hooks.use(copy)))).toBe("TOOLWARE_DUPLICATE_PACK");
    // Declaring a copy stateless drops the shared identity.
    const unshared = definePack({ ...(pack as object), name: pack.name, hooks: pack.hooks, stateful: false });
    expect(() => hooks.use(unshared as Pack)).not.toThrow();
  });

  it("stateless packs may still be registered twice (they run twice, as functions do)", () => {
    const hooks = new ToolHooks();
    const pack = counter(false);
    hooks.use(pack);
    hooks.use(pack);
    expect(hooks.list()).toHaveLength(2);
    expect(pack.stateful).toBe(false);
    expect(counter().stateful).toBe(true);
  });
});
