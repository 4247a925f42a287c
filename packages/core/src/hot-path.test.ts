import { describe, expect, it } from "vitest";
import { Agent, defineTool, HookFailedError, type ToolCallOutcome, ToolHooks } from "./index.js";

const echo = defineTool({ name: "echo", execute: async (input: { text: string }) => input.text });
const syncEcho = defineTool({ name: "sync_echo", execute: (input: { text: string }) => input.text });
// The same tool as `echo`, answering synchronously.
const echoNow = defineTool({ name: "echo", execute: (input: { text: string }) => input.text });

// Everything an outcome says except its call id, which is unique per call.
function comparable(outcome: ToolCallOutcome): Omit<ToolCallOutcome, "callId"> {
  const { callId: _id, ...rest } = outcome;
  return rest;
}

describe("hot path", () => {
  it("runs a sync tool with sync hooks and still resolves a promise", async () => {
    const hooks = new ToolHooks();
    const order: string[] = [];
    hooks.before(() => {
      order.push("before");
    });
    hooks.after((ctx) => {
      order.push("after");
      return `${ctx.toolResult}!`;
    });
    const pending = hooks.invoke(syncEcho, { text: "hi" });
    expect(pending).toBeInstanceOf(Promise);
    const outcome = await pending;
    expect(outcome.result).toBe("hi!");
    expect(order).toEqual(["before", "after"]);
  });

  it("resolves the same outcome whether the tool and hooks are sync or async", async () => {
    const stacks: Record<string, (hooks: ToolHooks, async: boolean) => void> = {
      "no hooks": () => {},
      "before and after": (hooks, async) => {
        hooks.before((ctx) => {
          ctx.toolInput.text = `${ctx.toolInput.text}+`;
          return async ? Promise.resolve(true) : true;
        });
        hooks.after((ctx) => (async ? Promise.resolve(`${ctx.toolResult}!`) : `${ctx.toolResult}!`));
      },
      blocking: (hooks, async) => {
        hooks.after(() => undefined);
        hooks.before((ctx) => (async ? Promise.resolve(ctx.block("no")) : ctx.block("no")));
      },
      middleware: (hooks, async) => {
        hooks.use(async (ctx, next) => {
          await next();
          ctx.toolResult = `[${ctx.toolResult}]`;
        });
        hooks.before(() => (async ? Promise.resolve() : undefined));
        hooks.after(() => (async ? Promise.resolve("after") : "after"), { priority: 1 });
      },
    };
    for (const [name, build] of Object.entries(stacks)) {
      const outcomes: ToolCallOutcome[] = [];
      for (const async of [false, true]) {
        const hooks = new ToolHooks();
        build(hooks, async);
        outcomes.push(await hooks.invoke(async ? echo : echoNow, { text: name }));
      }
      const [sync, async] = outcomes as [ToolCallOutcome, ToolCallOutcome];
      expect(comparable(sync), name).toEqual(comparable(async));
      expect(sync.trace.length, name).toBe(name === "no hooks" ? 0 : name === "middleware" ? 3 : 2);
    }
  });

  it("rejects bad arguments instead of throwing synchronously", async () => {
    const hooks = new ToolHooks();
    const bad = [
      () => hooks.invoke(null as never, {}),
      () => hooks.invoke(echo, null as never),
      () => hooks.invoke(echo, { text: "x" }, { agent: {} as Agent }),
    ];
    for (const call of bad) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = call();
      }).not.toThrow();
      await expect(pending).rejects.toBeInstanceOf(TypeError);
    }
  });

  it("runs only the after-hooks outside a blocking before-hook, innermost first", async () => {
    const hooks = new ToolHooks();
    const order: string[] = [];
    hooks.after(() => void order.push("outer after"), { priority: 3 });
    hooks.before(async () => false, { priority: 2 });
    hooks.after(() => void order.push("inner after"), { priority: 1 });
    const outcome = await hooks.invoke(echo, { text: "x" });
    expect(outcome.status).toBe("blocked");
    expect(order).toEqual(["outer after"]);
  });

  it("runs after-hooks nested in a middleware before the middleware's code after next()", async () => {
    const hooks = new ToolHooks();
    const order: string[] = [];
    hooks.use(
      async (_ctx, next) => {
        order.push("mw in");
        await next();
        order.push("mw out");
      },
      { priority: 2 },
    );
    hooks.after(() => void order.push("after"), { priority: 1 });
    hooks.before(() => void order.push("before"));
    await hooks.invoke(echo, { text: "x" });
    expect(order).toEqual(["mw in", "before", "after", "mw out"]);
  });

  it("reports modified-result for a middleware that changes the result after a sync inner chain", async () => {
    const hooks = new ToolHooks();
    hooks.use(async (ctx, next) => {
      await next();
      ctx.toolResult = "changed";
    });
    const outcome = await hooks.invoke(syncEcho, { text: "x" });
    expect(outcome.result).toBe("changed");
    expect(outcome.trace.map((t) => t.action)).toEqual(["modified-result"]);
  });

  it("keeps each call's trace to its own actions although plain entries are shared", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.toolInput.text !== "stop");
    const ok = await hooks.invoke(echo, { text: "go" });
    const blocked = await hooks.invoke(echo, { text: "stop" });
    const again = await hooks.invoke(echo, { text: "go" });
    expect(ok.trace.map((t) => t.action)).toEqual(["proceeded"]);
    expect(blocked.trace.map((t) => t.action)).toEqual(["blocked"]);
    expect(again.trace).toEqual(ok.trace);
    expect(ok.trace).not.toBe(again.trace);
    expect(ok.trace[0]).toEqual({
      hook: "before#0",
      layer: "global",
      kind: "before",
      phase: "before",
      action: "proceeded",
      reason: undefined,
      error: undefined,
      durationMs: undefined,
    });
    expect(Object.isFrozen(ok.trace[0])).toBe(true);
  });

  it("gives entries with a reason, an error or a duration to their own call only", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    hooks.before((ctx) => {
      const text = String(ctx.toolInput.text);
      if (text.startsWith("no")) ctx.block(`refused ${text}`);
    });
    hooks.after((ctx) => {
      if (ctx.toolResult === "fail") throw new Error(`failed on ${ctx.toolResult}`);
    });
    const first = await hooks.invoke(echo, { text: "no 1" });
    const second = await hooks.invoke(echo, { text: "no 2" });
    expect(first.trace[0]?.reason).toBe("refused no 1");
    expect(second.trace[0]?.reason).toBe("refused no 2");
    const failed = await hooks.invoke(echo, { text: "fail" });
    expect(failed.trace.map((t) => t.action)).toEqual(["proceeded", "failed"]);
    expect(failed.trace[1]?.error).toEqual(new Error("failed on fail"));

    const timed = new ToolHooks({ timing: true });
    timed.before(() => {});
    const [a, b] = [await timed.invoke(echo, { text: "x" }), await timed.invoke(echo, { text: "x" })];
    expect(typeof a.trace[0]?.durationMs).toBe("number");
    expect(a.trace[0]).not.toBe(b.trace[0]);
  });

  it("rejects with the hook's error for a throw-policy hook, with or without listeners", async () => {
    for (const listen of [false, true]) {
      const hooks = new ToolHooks();
      const seen: unknown[] = [];
      if (listen) hooks.on("call:error", ({ error }) => void seen.push(error));
      hooks.after(
        async () => {
          throw new Error("boom");
        },
        { onError: "throw" },
      );
      await expect(hooks.invoke(echo, { text: "x" })).rejects.toBeInstanceOf(HookFailedError);
      expect(seen.length).toBe(listen ? 1 : 0);
    }
  });

  it("tells listeners added during a call about that call's block, failure or rejection", async () => {
    const blocked: string[] = [];
    const errors: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before(async (ctx) => {
      if (ctx.toolInput.text === "block") {
        hooks.once("call:blocked", ({ reason }) => void blocked.push(String(reason)));
        ctx.block("late listener");
      }
      if (ctx.toolInput.text === "fail") hooks.once("call:error", ({ error }) => void errors.push(error));
    });
    const failing = defineTool({
      name: "failing",
      execute: async (_: { text: string }) => {
        throw new Error("tool broke");
      },
    });
    expect((await hooks.invoke(echo, { text: "block" })).status).toBe("blocked");
    expect(blocked).toEqual(["late listener"]);
    expect((await hooks.invoke(failing, { text: "fail" })).status).toBe("error");
    expect((errors[0] as Error).message).toBe("tool broke");

    // A "throw" hook's rejection, with the only listener added by a hook of the same call.
    const strict = new ToolHooks();
    const rejected: unknown[] = [];
    strict.before(() => {
      strict.once("call:error", ({ error, outcome }) => void rejected.push([error, outcome]));
    });
    strict.after(
      () => {
        throw new Error("strict");
      },
      { onError: "throw" },
    );
    const error = await strict.invoke(echo, { text: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookFailedError);
    expect(rejected).toEqual([[error, undefined]]);
  });

  it("emits call:end with a duration only to listeners registered before the call", async () => {
    const hooks = new ToolHooks();
    const durations: number[] = [];
    let registered = false;
    hooks.before(() => {
      if (registered) return;
      registered = true;
      hooks.once("call:end", ({ durationMs }) => void durations.push(durationMs));
    });
    await hooks.invoke(echo, { text: "x" });
    expect(durations).toEqual([]);
    await hooks.invoke(echo, { text: "x" });
    expect(durations).toHaveLength(1);
    expect(durations[0]).toBeGreaterThanOrEqual(0);
  });

  it("gives unique, well-formed call ids across 100,000 calls", async () => {
    const hooks = new ToolHooks();
    const ids = new Set<string>();
    for (let i = 0; i < 100_000; i++) ids.add((await hooks.invoke(syncEcho, { text: "" })).callId);
    expect(ids.size).toBe(100_000);
    expect([...ids].filter((id) => !/^[0-9a-z]+-[0-9a-z]{2,}$/.test(id))).toEqual([]);
  });

  it("does not reuse a cached chain after hooks change between two calls of the same tool", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "researcher" });
    expect((await hooks.invoke(echo, { text: "x" }, { agent })).trace).toHaveLength(0);
    agent.before(() => false);
    expect((await hooks.invoke(echo, { text: "x" }, { agent })).status).toBe("blocked");
  });
});
