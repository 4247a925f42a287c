import { describe, expect, it, vi } from "vitest";
import { definePack, defineTool, ToolHooks } from "./index.js";

const ok = defineTool({ name: "ok_tool", execute: () => "fine" });
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // synchronous work the timer cannot interrupt
  }
};

describe("middleware time accounting", () => {
  it("judges synchronous overruns of a middleware once it returns", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      async (_ctx, next) => {
        await next();
        busy(20);
      },
      { timeoutMs: 5, name: "cpuBound" },
    );
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      reason: "hook cpuBound failed: toolware: hook cpuBound timed out after 5 ms",
    });
  });

  it("reports a middleware's own duration, without the time spent inside next()", async () => {
    const hooks = new ToolHooks({ timing: true });
    hooks.use(async (_ctx, next) => next(), { name: "thin" });
    const slow = defineTool({ name: "slow", execute: () => wait(40).then(() => "done") });
    const outcome = await hooks.invoke(slow, {});
    const entry = outcome.trace.find((t) => t.hook === "thin");
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0);
    expect(entry?.durationMs).toBeLessThan(20);
  });
});

describe("abandoned middlewares", () => {
  it("makes a late next() of a timed-out middleware wait for the chain run in its place", async () => {
    const hooks = new ToolHooks();
    let seen: string | undefined;
    let lateDone: Promise<void> | undefined;
    hooks.use(
      async (ctx, next) => {
        await wait(30);
        lateDone = next().then(() => {
          seen = ctx.toolResult;
        });
        await lateDone;
      },
      { timeoutMs: 10, onError: "continue", name: "sluggish" },
    );
    const slow = defineTool({ name: "slow", execute: () => wait(60).then(() => "done") });
    const outcome = await hooks.invoke(slow, {});
    expect(outcome).toMatchObject({ status: "ok", result: "done" });
    await wait(40);
    await lateDone;
    expect(seen).toBe("done");
  });

  it("exposes the trace so far to the hooks", async () => {
    const hooks = new ToolHooks();
    let seen: string[] = [];
    hooks.after((ctx) => {
      seen = ctx.trace.map((t) => `${t.hook}:${t.action}`);
    });
    hooks.before(() => false, { name: "deny" });
    await hooks.invoke(ok, {});
    expect(seen).toEqual(["deny:blocked"]);
  });
});

describe("failures on the way out keep earlier decisions", () => {
  it("keeps an earlier block's reason when an after-hook then fails", async () => {
    const hooks = new ToolHooks();
    hooks.after(() => {
      throw new Error("observer bug");
    });
    hooks.before((ctx) => ctx.block("policy says no"));
    const outcome = await hooks.invoke(ok, {});
    expect(outcome).toMatchObject({
      status: "blocked",
      reason: "policy says no",
      result: "Tool execution blocked by hook. Tool: ok_tool. Reason: policy says no",
    });
    expect(outcome.trace.map((t) => t.action)).toEqual(["blocked", "failed"]);
  });

  it("keeps a failed tool's error while withholding its message", async () => {
    const hooks = new ToolHooks();
    hooks.after(function scrub() {
      throw new Error("scrubber bug");
    });
    const error = new Error("db password=hunter2 rejected");
    const failing = defineTool({
      name: "db",
      execute: () => {
        throw error;
      },
    });
    const outcome = await hooks.invoke(failing, {});
    expect(outcome.status).toBe("error");
    expect(outcome.error).toBe(error);
    expect(outcome.result).toBe("Tool result withheld by hook. Tool: db. Reason: hook scrub failed: scrubber bug");
  });

  it("ignores the string of an after-hook that blocked, even on an already blocked call", async () => {
    const hooks = new ToolHooks();
    hooks.after((ctx) => {
      ctx.block("second opinion");
      return "leaked text";
    });
    hooks.before(() => false);
    const outcome = await hooks.invoke(ok, {});
    expect(outcome.result).toBe("Tool execution blocked by hook. Tool: ok_tool. Reason: second opinion");
  });
});

describe("decisions after the call", () => {
  it("lets an abandoned hook change nothing once the call is over", async () => {
    const hooks = new ToolHooks();
    let late: (() => void) | undefined;
    hooks.before(
      async (ctx) => {
        await wait(30);
        late = () => ctx.block("too late");
      },
      { timeoutMs: 5, onError: "continue" },
    );
    const outcome = await hooks.invoke(ok, {});
    expect(outcome.status).toBe("ok");
    await wait(40);
    late?.();
    expect(outcome).toMatchObject({ status: "ok", result: "fine" });
  });

  it("leaves the call unchanged when respond() gets a value that cannot be formatted", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    hooks.before((ctx) => ctx.respond(cyclic));
    const outcome = await hooks.invoke(ok, {});
    expect(outcome).toMatchObject({ status: "ok", result: "fine", raw: "fine" });
  });

  it("rejects a non-string block reason", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.block(42 as never), { name: "sloppy" });
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      reason: "hook sloppy failed: toolware: ctx.block() takes a string reason, got number",
    });
  });
});

describe("options and inputs", () => {
  it("falls back to the default message when a formatter throws, and reports it", async () => {
    const reported: string[] = [];
    const hooks = new ToolHooks({
      messages: {
        blocked: () => {
          throw new Error("template bug");
        },
      },
      onListenerError: (where, e) => reported.push(`${where}: ${(e as Error).message}`),
    });
    hooks.before(() => false);
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      result: "Tool execution blocked by hook. Tool: ok_tool",
    });
    expect(reported).toEqual(["messages.blocked: template bug"]);
  });

  it("checks every instance option", () => {
    expect(() => new ToolHooks({ humanInput: "terminal" as never })).toThrow(/`humanInput` must be a function/);
    expect(() => new ToolHooks({ timing: "yes" as never })).toThrow(/`timing` must be true or false/);
    expect(() => new ToolHooks({ onListenerError: 1 as never })).toThrow(/`onListenerError` must be a function/);
    expect(() => new ToolHooks({ messages: { blocked: "no" } as never })).toThrow(
      /`messages.blocked` must be a function/,
    );
    expect(() => new ToolHooks({ messages: { denied: () => "" } as never })).toThrow(/unknown message `denied`/);
    expect(() => new ToolHooks({ messages: 1 as never })).toThrow(/`messages` must be an object/);
  });

  it("rejects a null input instead of treating it as empty", async () => {
    await expect(new ToolHooks().invoke(ok, null as never)).rejects.toThrow(/must be an object, got null/);
  });

  it("uses use()'s name as the prefix of a pack's hooks", () => {
    const hooks = new ToolHooks();
    const pack = definePack({ name: "audit", hooks: [{ kind: "before", fn: function check() {} }] });
    hooks.use(pack, { name: "audit-eu" });
    expect(hooks.list().map((h) => h.name)).toEqual(["audit-eu:check"]);
    const limiter = definePack({ name: "rate-limit", hooks: [{ kind: "before", fn: function rateLimit() {} }] });
    hooks.use(limiter);
    expect(hooks.list().map((h) => h.name)).toEqual(["audit-eu:check", "rate-limit"]);
  });

  it("never calls a formatter for calls that need none", async () => {
    const blocked = vi.fn(() => "x");
    const hooks = new ToolHooks({ messages: { blocked } });
    await hooks.invoke(ok, {});
    expect(blocked).not.toHaveBeenCalled();
  });
});

describe("hardening", () => {
  it("matches filters under odd casing that the camelCase split would break", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => false, { tools: "delete_file" });
    for (const name of ["DeLeTe_FiLe", "delete_filE", "DELETE-FILE", "deleteFile"]) {
      const outcome = await hooks.invoke(defineTool({ name, execute: () => "gone" }), {});
      expect(outcome.status, name).toBe("blocked");
    }
  });

  it("keeps getters of pack extras live", () => {
    let calls = 0;
    const pack = definePack({
      name: "counter",
      hooks: [],
      get calls() {
        return calls;
      },
    });
    calls = 3;
    expect(pack.calls).toBe(3);
    expect(Object.isFrozen(pack)).toBe(true);
  });

  it("never lets __proto__ in a hook's writes change the input's prototype", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      Object.assign(ctx.toolInput, JSON.parse('{"__proto__": {"isAdmin": true}, "q": 1}'));
      // biome-ignore lint/suspicious/noProto: the attack under test
      (ctx.toolInput as Record<string, unknown>).__proto__ = { isAdmin: true };
    });
    hooks.before((ctx) => {
      expect(Reflect.setPrototypeOf(ctx.toolInput, { isAdmin: true })).toBe(false);
    });
    const tool = defineTool({
      name: "t",
      execute: (input: { isAdmin?: boolean }) => ({
        admin: input.isAdmin === true,
        proto: Object.getPrototypeOf(input) === Object.prototype,
      }),
    });
    const outcome = await hooks.invoke(tool, {});
    expect(outcome).toMatchObject({ status: "ok", raw: { admin: false, proto: true } });
  });

  it("takes a per-question signal and time limit for human input", async () => {
    const seen: AbortSignal[] = [];
    const hooks = new ToolHooks({
      humanInput: (request) =>
        new Promise<string>((_resolve, reject) => {
          seen.push(request.signal);
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
        }),
    });
    let error: unknown;
    hooks.before(async (ctx) => {
      error = await ctx.requestHumanInput("Approve?", undefined, { timeoutMs: 10 }).catch((e: unknown) => e);
    });
    await hooks.invoke(ok, {});
    expect((error as Error).name).toBe("HumanInputTimeoutError");
    expect((error as Error).message).toBe('toolware: no answer to "Approve?" within 10 ms');
    expect(seen[0]?.aborted).toBe(true);

    const question = new AbortController();
    hooks.clear();
    hooks.before(async (ctx) => {
      const pending = ctx.requestHumanInput("Still there?", undefined, { signal: question.signal });
      question.abort(new Error("moved on"));
      error = await pending.catch((e: unknown) => e);
    });
    await hooks.invoke(ok, {});
    expect((error as Error).message).toMatch(/the human-input provider failed: moved on/);
    hooks.clear();
    hooks.before(async (ctx) => {
      error = await ctx.requestHumanInput("?", undefined, { timeoutMs: -1 }).catch((e: unknown) => e);
    });
    await hooks.invoke(ok, {});
    expect((error as Error).message).toMatch(/`timeoutMs` must be a positive number/);
  });
});
