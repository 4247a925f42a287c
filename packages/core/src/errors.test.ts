import { afterEach, describe, expect, it, vi } from "vitest";
import {
  defineTool,
  HookFailedError,
  HookTimeoutError,
  HumanInputUnavailableError,
  scriptedHumanInput,
  ToolHooks,
  type ToolHooksEvents,
} from "./index.js";

const ok = defineTool({ name: "ok_tool", execute: () => "fine" });
const boom = () => {
  throw new Error("kaput");
};
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

afterEach(() => {
  vi.useRealTimers();
});

describe("a tool that throws", () => {
  it("ends the call with status error, a readable message, and after-hooks that see it", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[] = [];
    hooks.after((ctx) => {
      seen.push([ctx.status, ctx.error, ctx.toolResult]);
    });
    const error = new Error("disk full");
    const failing = defineTool({
      name: "write_file",
      execute: async () => {
        throw error;
      },
    });
    const outcome = await hooks.invoke(failing, {});
    expect(outcome).toMatchObject({
      status: "error",
      error,
      raw: undefined,
      result: "Tool execution failed. Tool: write_file. Error: disk full",
    });
    expect(seen).toEqual([["error", error, "Tool execution failed. Tool: write_file. Error: disk full"]]);
  });

  it("handles sync throws and non-Error values, and a custom message", async () => {
    const hooks = new ToolHooks({ messages: { failed: (tool, e) => `${tool} broke: ${String(e)}` } });
    const sync = defineTool({
      name: "s",
      execute: () => {
        throw "plain string";
      },
    });
    await expect(hooks.invoke(sync, {})).resolves.toMatchObject({ status: "error", result: "s broke: plain string" });
  });
});

describe("hook errors: block (default, fail closed)", () => {
  it("blocks in the before phase with a reason naming the hook", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn();
    hooks.before(function checkQuota() {
      throw new Error("quota service down");
    });
    const outcome = await hooks.invoke(defineTool({ name: "send_email", execute }), {});
    expect(execute).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({
      status: "blocked",
      reason: "hook checkQuota failed: quota service down",
      result: "Tool execution blocked by hook. Tool: send_email. Reason: hook checkQuota failed: quota service down",
    });
    expect((outcome.error as Error).message).toBe("quota service down");
    expect(outcome.trace[0]).toMatchObject({ hook: "checkQuota", action: "failed", phase: "before" });
  });

  it("withholds the result in the after phase", async () => {
    const hooks = new ToolHooks();
    hooks.after(function scrub() {
      throw new Error("regex exploded");
    });
    const outcome = await hooks.invoke(ok, {});
    expect(outcome).toMatchObject({
      status: "blocked",
      raw: undefined,
      reason: "hook scrub failed: regex exploded",
      result: "Tool result withheld by hook. Tool: ok_tool. Reason: hook scrub failed: regex exploded",
    });
  });

  it("treats a rejected promise like a throw, in both phases and for middlewares", async () => {
    const hooks = new ToolHooks();
    hooks.use(async function mw(_ctx, next) {
      await next();
      throw new Error("after next");
    });
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      result: "Tool result withheld by hook. Tool: ok_tool. Reason: hook mw failed: after next",
    });
    hooks.clear();
    hooks.use(async function early() {
      throw new Error("before next");
    });
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      reason: "hook early failed: before next",
    });
  });

  it("fails closed when a human cannot be asked", async () => {
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput([]) });
    const execute = vi.fn();
    hooks.before(async function approve(ctx) {
      return (await ctx.requestHumanInput("Approve?")) === "yes";
    });
    const outcome = await hooks.invoke(defineTool({ name: "delete_file", execute }), {});
    expect(execute).not.toHaveBeenCalled();
    expect(outcome.status).toBe("blocked");
    expect(outcome.error).toBeInstanceOf(HumanInputUnavailableError);
    expect(outcome.reason).toMatch(/hook approve failed: toolware: the scripted human has no answer left/);
  });

  it("wraps a provider's own failure as HumanInputUnavailableError", async () => {
    const hooks = new ToolHooks({
      humanInput: () => {
        throw new Error("socket closed");
      },
    });
    let caught: unknown;
    hooks.before(async (ctx) => {
      caught = await ctx.requestHumanInput("?").catch((e: unknown) => e);
    });
    await hooks.invoke(ok, {});
    expect(caught).toBeInstanceOf(HumanInputUnavailableError);
    expect((caught as Error).message).toMatch(/the human-input provider failed: socket closed/);
  });
});

describe("hook errors: continue (fail open) and throw", () => {
  it("skips a failing hook with continue, per hook or per instance", async () => {
    const perHook = new ToolHooks();
    perHook.before(boom, { onError: "continue" });
    perHook.after(boom, { onError: "continue" });
    perHook.use(async () => boom(), { onError: "continue", name: "mw" });
    const a = await perHook.invoke(ok, {});
    expect(a).toMatchObject({ status: "ok", result: "fine" });
    expect(a.trace.map((t) => t.action)).toEqual(["failed", "failed", "failed"]);

    const instance = new ToolHooks({ onHookError: "continue" });
    instance.before(boom);
    await expect(instance.invoke(ok, {})).resolves.toMatchObject({ status: "ok" });
  });

  it("rejects with throw, and outer hooks' policies do not swallow it", async () => {
    const hooks = new ToolHooks();
    const outerAfter = vi.fn();
    hooks.after(outerAfter, { onError: "block" });
    hooks.use(async (_ctx, next) => next(), { onError: "block", name: "outerMw" });
    hooks.before(boom, { onError: "throw", name: "strict" });
    const error = await hooks.invoke(ok, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookFailedError);
    expect(error).toMatchObject({ hook: "strict", phase: "before", layer: "global", kind: "before" });
    expect((error as Error).message).toBe("toolware: hook strict failed: kaput");
    expect(outerAfter).not.toHaveBeenCalled();
  });

  it("rejects from the after phase too", async () => {
    const hooks = new ToolHooks();
    hooks.after(boom, { onError: "throw", name: "strictAfter" });
    await expect(hooks.invoke(ok, {})).rejects.toMatchObject({ hook: "strictAfter", phase: "after" });
  });
});

describe("timeouts", () => {
  it("bounds an async before-hook", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn();
    hooks.before(() => wait(200), { timeoutMs: 10, name: "slowCheck" });
    const outcome = await hooks.invoke(defineTool({ name: "t", execute }), {});
    expect(outcome.status).toBe("blocked");
    expect(outcome.error).toBeInstanceOf(HookTimeoutError);
    expect(outcome.reason).toBe("hook slowCheck failed: toolware: hook slowCheck timed out after 10 ms");
    expect(execute).not.toHaveBeenCalled();
  });

  it("bounds an async after-hook, and continue keeps the result", async () => {
    const hooks = new ToolHooks();
    hooks.after(() => wait(200).then(() => "late"), { timeoutMs: 10, onError: "continue" });
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({ status: "ok", result: "fine" });
  });

  it("treats a sync hook that overran as timed out once it returns", async () => {
    const hooks = new ToolHooks();
    hooks.before(
      () => {
        const end = performance.now() + 15;
        while (performance.now() < end) {
          // busy: a sync hook cannot be interrupted
        }
      },
      { timeoutMs: 5, name: "busy" },
    );
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      reason: "hook busy failed: toolware: hook busy timed out after 5 ms",
    });
  });

  it("does not count a middleware's time inside next() against its own budget", async () => {
    const hooks = new ToolHooks();
    hooks.use(async (_ctx, next) => next(), { timeoutMs: 20, name: "quick" });
    const slowTool = defineTool({ name: "slow", execute: () => wait(60).then(() => "slow result") });
    await expect(hooks.invoke(slowTool, {})).resolves.toMatchObject({ status: "ok", result: "slow result" });
  });

  it("bounds a middleware's own work before and after next()", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn();
    hooks.use(
      async (_ctx, next) => {
        await wait(100);
        await next();
      },
      { timeoutMs: 10, name: "slowIn" },
    );
    const before = await hooks.invoke(defineTool({ name: "t", execute }), {});
    expect(before).toMatchObject({
      status: "blocked",
      reason: "hook slowIn failed: toolware: hook slowIn timed out after 10 ms",
    });
    await wait(120);
    expect(execute).not.toHaveBeenCalled(); // the abandoned middleware's late next() runs nothing

    hooks.clear();
    hooks.use(
      async (_ctx, next) => {
        await next();
        await wait(100);
      },
      { timeoutMs: 10, name: "slowOut" },
    );
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({
      status: "blocked",
      result:
        "Tool result withheld by hook. Tool: ok_tool. Reason: hook slowOut failed: toolware: hook slowOut timed out after 10 ms",
    });
  });
});

describe("misuse of next()", () => {
  it("rejects a second next() with a clear error, handled by the middleware's policy", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn(() => "x");
    hooks.use(async function twice(_ctx, next) {
      await next();
      await next();
    });
    const outcome = await hooks.invoke(defineTool({ name: "t", execute }), {});
    expect(execute).toHaveBeenCalledTimes(1);
    expect(outcome.status).toBe("blocked");
    expect(outcome.reason).toMatch(/hook twice failed: toolware: middleware twice called next\(\) more than once/);
  });

  it("lets a middleware catch the second next() rejection itself", async () => {
    const hooks = new ToolHooks();
    let message = "";
    hooks.use(async (_ctx, next) => {
      await next();
      await next().catch((e: Error) => {
        message = e.message;
      });
    });
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({ status: "ok" });
    expect(message).toMatch(/called next\(\) more than once; the chain runs once per call/);
  });
});

describe("events for failures", () => {
  it("emits hook:error for every hook failure, with policy and phase", async () => {
    const hooks = new ToolHooks();
    const events: ToolHooksEvents["hook:error"][] = [];
    hooks.on("hook:error", (e) => {
      events.push(e);
    });
    hooks.before(boom, { onError: "continue", name: "b" });
    hooks.after(boom, { name: "a" });
    await hooks.invoke(ok, {});
    expect(events.map((e) => [e.hook.name, e.phase, e.policy, (e.error as Error).message])).toEqual([
      ["b", "before", "continue", "kaput"],
      ["a", "after", "block", "kaput"],
    ]);
  });

  it("emits call:blocked, call:error and call:end", async () => {
    const hooks = new ToolHooks();
    const seen: string[] = [];
    hooks.on("call:start", ({ ctx }) => seen.push(`start ${ctx.toolName}`));
    hooks.on("call:blocked", ({ reason }) => seen.push(`blocked ${reason}`));
    hooks.on("call:error", ({ error }) => seen.push(`error ${(error as Error).message}`));
    hooks.on("call:end", ({ outcome, durationMs }) => seen.push(`end ${outcome.status} ${durationMs >= 0}`));
    hooks.before((ctx) => (ctx.toolInput.deny ? ctx.block("denied") : undefined));
    await hooks.invoke(ok, { deny: true });
    await hooks.invoke(defineTool({ name: "bad", execute: boom }), {});
    expect(seen).toEqual([
      "start ok_tool",
      "blocked denied",
      "end blocked true",
      "start bad",
      "error kaput",
      "end error true",
    ]);
  });

  it("emits call:error without an outcome when a throw-policy hook rejects the call", async () => {
    const hooks = new ToolHooks();
    const errors: unknown[] = [];
    hooks.on("call:error", ({ error, outcome }) => errors.push([error instanceof HookFailedError, outcome]));
    hooks.before(boom, { onError: "throw" });
    await expect(hooks.invoke(ok, {})).rejects.toBeInstanceOf(HookFailedError);
    expect(errors).toEqual([[true, undefined]]);
  });

  it("never lets a throwing or rejecting listener break a call, and reports it", async () => {
    const reported: [string, string][] = [];
    const hooks = new ToolHooks({ onListenerError: (event, e) => reported.push([event, (e as Error).message]) });
    hooks.on("call:start", () => {
      throw new Error("listener bug");
    });
    hooks.on("call:end", async () => {
      throw new Error("async listener bug");
    });
    const after = vi.fn();
    hooks.on("call:end", after);
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({ status: "ok" });
    await wait(0);
    expect(after).toHaveBeenCalledTimes(1);
    expect(reported).toEqual([
      ["call:start", "listener bug"],
      ["call:end", "async listener bug"],
    ]);
  });

  it("falls back to console.error when the reporter itself fails", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const hooks = new ToolHooks({
      onListenerError: () => {
        throw new Error("reporter broken");
      },
    });
    hooks.on("call:start", boom);
    await expect(hooks.invoke(ok, {})).resolves.toMatchObject({ status: "ok" });
    expect(spy).toHaveBeenCalledWith('toolware: a listener of "call:start" failed:', expect.any(Error));
    spy.mockRestore();
  });
});
