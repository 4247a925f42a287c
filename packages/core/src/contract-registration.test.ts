// Contract: registration options, pack specs and ToolHooks options are read once and checked; a
// getter or Proxy that answers the check with one value cannot hand the chain another, and a value
// that cannot be read is a coded TypeError at registration, never a hook that silently stops guarding.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Agent,
  Crew,
  definePack,
  defineTool,
  type HookOptions,
  type HookSpec,
  ToolHooks,
  toolwareCode,
} from "./index.js";
import { codeOf } from "./test-fixtures.js";

const tool = defineTool({ name: "delete_file", execute: () => "deleted" });
const deny = () => false;
const failing = () => {
  throw new Error("guard failed");
};

/** A getter that answers `first` on its first read and `later` on every other one. */
function flipping<T>(first: T, later: unknown): () => unknown {
  let reads = 0;
  return () => (reads++ === 0 ? first : later);
}

describe("hook options are read once", () => {
  it("an onError getter that says block, then continue, still blocks", async () => {
    const hooks = new ToolHooks();
    hooks.before(
      failing,
      Object.defineProperty({}, "onError", { get: flipping("block", "continue"), enumerable: true }),
    );
    expect(hooks.list()[0]?.onError).toBe("block");
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });

  it("priority, timeoutMs and name keep the value that was checked", () => {
    const hooks = new ToolHooks();
    const options = {};
    Object.defineProperty(options, "priority", { get: flipping(5, Number.NaN), enumerable: true });
    Object.defineProperty(options, "timeoutMs", { get: flipping(50, -1), enumerable: true });
    Object.defineProperty(options, "name", { get: flipping("audit", 42), enumerable: true });
    hooks.before(deny, options);
    const [info] = hooks.list();
    expect([info?.priority, info?.timeoutMs, info?.name]).toEqual([5, 50, "audit"]);
  });

  it("a pack registered with use() options that flip keeps the checked ones", async () => {
    const pack = definePack({ name: "guard", hooks: [{ kind: "before", fn: failing }] });
    const hooks = new ToolHooks({ onHookError: "continue" });
    hooks.use(pack, Object.defineProperty({}, "onError", { get: flipping("block", "continue"), enumerable: true }));
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });

  it("an option whose getter throws is a coded TypeError, and nothing is registered", () => {
    const hooks = new ToolHooks();
    for (const key of ["name", "priority", "tools", "agents", "onError", "timeoutMs"]) {
      const options = Object.defineProperty({}, key, { get: failing, enumerable: true }) as HookOptions;
      expect(codeOf(() => hooks.before(deny, options))).toBe("TOOLWARE_INVALID_OPTION");
    }
    const hostileKeys = new Proxy({}, { ownKeys: failing });
    expect(codeOf(() => hooks.after(() => undefined, hostileKeys))).toBe("TOOLWARE_INVALID_OPTION");
    expect(hooks.list()).toEqual([]);
  });

  it("whatever value an option has, it is refused or it is what the hook runs with", async () => {
    const policies: unknown[] = ["block", "continue", "throw"];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.anything(), fc.constantFrom(...policies), fc.double(), fc.constant(Symbol("p"))),
        async (onError) => {
          const hooks = new ToolHooks();
          try {
            hooks.before(failing, { onError } as HookOptions);
          } catch (error) {
            expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
            return;
          }
          // Left out, the instance's default applies ("block").
          expect([...policies, undefined]).toContain(onError);
          const run = hooks.invoke(tool, {});
          if (onError === "throw") await expect(run).rejects.toThrow();
          else expect((await run).status).toBe(onError === "continue" ? "ok" : "blocked");
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("hooks whose function has a hostile name", () => {
  it("a name getter that throws or is not a string gives the anonymous name", async () => {
    const hooks = new ToolHooks();
    const throwing = () => false;
    Object.defineProperty(throwing, "name", { get: failing });
    const numbered = () => false;
    Object.defineProperty(numbered, "name", { value: 42 });
    hooks.before(throwing);
    hooks.before(numbered);
    expect(hooks.list().map((h) => h.name)).toEqual(["before#0", "before#1"]);
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
    const pack = definePack({ name: "p", hooks: [{ kind: "before", fn: throwing }] });
    hooks.use(pack);
    expect(hooks.list()[2]?.name).toBe("p:before#0");
  });
});

describe("pack specs are read once", () => {
  it("a hook whose kind getter changes after definePack still runs as the kind it was checked as", async () => {
    const spec = Object.defineProperty({ fn: deny }, "kind", { get: flipping("before", "bogus"), enumerable: true });
    const pack = definePack({ name: "guard", hooks: [spec as unknown as HookSpec] });
    const hooks = new ToolHooks();
    hooks.use(pack);
    expect(hooks.list().map((h) => h.kind)).toEqual(["before"]);
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });

  it("a hook whose fn getter changes after definePack keeps the function that was checked", async () => {
    const spec = Object.defineProperty({ kind: "before" }, "fn", {
      get: flipping(deny, () => undefined),
      enumerable: true,
    });
    const pack = definePack({ name: "guard", hooks: [spec as unknown as HookSpec] });
    const hooks = new ToolHooks();
    hooks.use(pack);
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
    expect(pack.hooks[0]?.fn).toBe(deny);
  });

  it("a hooks getter is read once: the array that was checked is the pack's", () => {
    const spec = Object.defineProperty({ name: "guard" }, "hooks", {
      get: flipping([{ kind: "before", fn: deny }], [{ kind: "bogus", fn: 1 }]),
      enumerable: true,
    });
    const pack = definePack(spec as { name: string; hooks: HookSpec[] });
    expect(pack.hooks.map((h) => h.kind)).toEqual(["before"]);
    expect(Object.isFrozen(pack.hooks[0])).toBe(true);
  });

  it("a getter that throws in a spec is TOOLWARE_INVALID_PACK", () => {
    for (const key of ["name", "hooks", "stateful"]) {
      const spec = { name: "p", hooks: [] };
      Object.defineProperty(spec, key, { get: failing, enumerable: true });
      expect(codeOf(() => definePack(spec))).toBe("TOOLWARE_INVALID_PACK");
    }
    for (const key of ["kind", "fn", "options"]) {
      const hook = { kind: "before", fn: deny };
      Object.defineProperty(hook, key, { get: failing, enumerable: true });
      expect(codeOf(() => definePack({ name: "p", hooks: [hook as HookSpec] }))).toBe("TOOLWARE_INVALID_PACK");
    }
  });

  it("a frozen spec is accepted, and extras stay as they were", () => {
    const spec = Object.freeze({ name: "frozen", hooks: Object.freeze([{ kind: "before", fn: deny }]), extra: 1 });
    const pack = definePack(spec as typeof spec & { hooks: readonly HookSpec[] });
    expect([pack.name, pack.hooks.length, pack.extra]).toEqual(["frozen", 1, 1]);
  });
});

describe("clear(kind)", () => {
  it("a misspelt or ill-typed kind is refused and removes nothing", () => {
    for (const layer of [new ToolHooks(), new Crew({ name: "c" }), new Agent({ role: "r" })]) {
      layer.before(deny);
      for (const kind of ["befor", "Before", "", "all", 1, null, Symbol("k")]) {
        expect(codeOf(() => layer.clear(kind as "before"))).toBe("TOOLWARE_INVALID_OPTION");
      }
      expect(layer.list().length).toBe(1);
      expect(layer.clear("before")).toBe(1);
    }
  });
});

describe("ToolHooks options are read once", () => {
  it("a humanInput getter that changes keeps the provider that was checked", async () => {
    const options = Object.defineProperty({}, "humanInput", {
      get: flipping(() => "yes", "not a function"),
      enumerable: true,
    });
    const hooks = new ToolHooks(options);
    let answer: string | undefined;
    hooks.before(async (ctx) => {
      answer = await ctx.requestHumanInput("ok?");
    });
    expect((await hooks.invoke(tool, {})).status).toBe("ok");
    expect(answer).toBe("yes");
  });

  it("an option or message getter that throws is a coded TypeError", () => {
    for (const key of ["onHookError", "timing", "humanInput", "messages", "onListenerError"]) {
      const options = Object.defineProperty({}, key, { get: failing, enumerable: true });
      expect(codeOf(() => new ToolHooks(options))).toBe("TOOLWARE_INVALID_OPTION");
    }
    const messages = Object.defineProperty({}, "blocked", { get: failing, enumerable: true });
    expect(codeOf(() => new ToolHooks({ messages }))).toBe("TOOLWARE_INVALID_OPTION");
  });

  it("an onHookError getter that flips keeps the checked policy", async () => {
    const options = Object.defineProperty({}, "onHookError", { get: flipping("block", "continue"), enumerable: true });
    const hooks = new ToolHooks(options);
    hooks.before(failing);
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });
});
