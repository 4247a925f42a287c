// A stateful pack registered twice on one layer would count every call twice: refused, with the way out.
import { describe, expect, it } from "vitest";
import { Agent, definePack, defineTool, type Pack, ToolHooks, toolwareCode } from "./index.js";

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

  it("shares one instance's state across layers and ToolHooks (documented), without refusing", async () => {
    const a = new ToolHooks();
    const b = new ToolHooks();
    const agent = new Agent({ role: "r" });
    const pack = counter();
    a.use(pack);
    b.use(pack);
    agent.use(pack);
    await a.invoke(tool, {});
    await b.invoke(tool, {});
    // One call bound to the agent runs the pack on two layers: the shared counter sees both.
    await a.invoke(tool, {}, { agent });
    expect(pack.calls()).toBe(4);
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
