import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type RetryOptions, retry } from "./index.js";

// Fails `failures` times, then answers; records the signal of every attempt.
function flaky(failures: number, name = "flaky_api") {
  const signals: AbortSignal[] = [];
  let calls = 0;
  const tool = defineTool({
    name,
    execute: (_input, { signal }) => {
      signals.push(signal);
      calls++;
      if (calls <= failures) throw new Error(`boom ${calls}`);
      return `ok after ${calls}`;
    },
  });
  return { tool, signals, calls: () => calls };
}

// Records the pauses instead of waiting.
function recorder() {
  const pauses: number[] = [];
  const sleep = (ms: number) => {
    pauses.push(ms);
    return Promise.resolve();
  };
  return { pauses, sleep };
}

function quick(options: RetryOptions = {}) {
  const r = recorder();
  return { pack: retry({ jitter: "none", minDelayMs: 100, ...options, sleep: options.sleep ?? r.sleep }), ...r };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("retry", () => {
  it("re-runs only the tool with exponential pauses; hooks and middlewares run once", async () => {
    const hooks = new ToolHooks();
    const { pack, pauses } = quick({ retries: 3 });
    const seen = { before: 0, after: 0, middleware: 0 };
    const attemptsSeen: unknown[] = [];
    hooks.use(async (_ctx, next) => {
      seen.middleware++;
      await next();
    });
    hooks.use(pack);
    hooks.before(() => {
      seen.before++;
    });
    hooks.after((ctx) => {
      seen.after++;
      attemptsSeen.push(ctx.state.retry?.attempts);
    });
    const api = flaky(2);
    const outcome = await hooks.invoke(api.tool, {});
    expect(outcome).toMatchObject({ status: "ok", result: "ok after 3" });
    expect(api.calls()).toBe(3);
    expect(pauses).toEqual([100, 200]);
    expect(seen).toEqual({ before: 1, after: 1, middleware: 1 });
    expect(attemptsSeen).toEqual([3]);
  });

  it("exposes the failed attempts on ctx.state.retry", async () => {
    const hooks = new ToolHooks();
    hooks.use(quick({ retries: 1 }).pack);
    let state: unknown;
    hooks.after((ctx) => {
      state = ctx.state.retry;
    });
    await hooks.invoke(flaky(1).tool, {});
    expect(state).toMatchObject({
      attempts: 2,
      errors: [expect.objectContaining({ message: "boom 1" })],
      delaysMs: [100],
    });
  });

  it("gives up after `retries` and fails with the last error", async () => {
    const hooks = new ToolHooks();
    const { pack, pauses } = quick({ retries: 2, factor: 3 });
    hooks.use(pack);
    const api = flaky(10);
    const outcome = await hooks.invoke(api.tool, {});
    expect(outcome).toMatchObject({
      status: "error",
      result: "Tool execution failed. Tool: flaky_api. Error: boom 3",
    });
    expect(api.calls()).toBe(3);
    expect(pauses).toEqual([100, 300]);
  });

  it("stops when retryOn says no, and tells it the attempt", async () => {
    const hooks = new ToolHooks();
    const retryOn = vi.fn((error: unknown, attempt: number) => attempt < 2 && (error as Error).message !== "fatal");
    hooks.use(quick({ retries: 5, retryOn }).pack);
    const api = flaky(10);
    expect((await hooks.invoke(api.tool, {})).result).toMatch(/boom 2$/);
    expect(api.calls()).toBe(2);
    expect(retryOn.mock.calls.map(([e, a]) => [(e as Error).message, a])).toEqual([
      ["boom 1", 1],
      ["boom 2", 2],
    ]);

    let fatalCalls = 0;
    const fatal = defineTool({
      name: "fatal",
      execute: () => {
        fatalCalls++;
        throw new Error("fatal");
      },
    });
    expect(await hooks.invoke(fatal, {})).toMatchObject({ status: "error" });
    expect(fatalCalls).toBe(1);
    expect(retryOn).toHaveBeenLastCalledWith(expect.objectContaining({ message: "fatal" }), 1, expect.anything());
  });

  it("a throwing retryOn fails the call with its own error; retries: 0 runs once", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      quick({
        retryOn: () => {
          throw new Error("classifier broke");
        },
      }).pack,
    );
    const api = flaky(5);
    expect((await hooks.invoke(api.tool, {})).result).toMatch(/Error: classifier broke$/);
    expect(api.calls()).toBe(1);

    const once = new ToolHooks();
    const { pack, pauses } = quick({ retries: 0 });
    once.use(pack);
    const other = flaky(5);
    expect((await once.invoke(other.tool, {})).result).toMatch(/boom 1$/);
    expect([other.calls(), pauses.length]).toEqual([1, 0]);
  });

  it("applies full, proportional and no jitter, capped at maxDelayMs", async () => {
    const run = async (options: RetryOptions) => {
      const hooks = new ToolHooks();
      const r = quick({ retries: 4, maxDelayMs: 500, ...options });
      hooks.use(r.pack);
      await hooks.invoke(flaky(4).tool, {});
      return r.pauses;
    };
    expect(await run({ jitter: "none" })).toEqual([100, 200, 400, 500]);
    expect(await run({ jitter: "full", random: () => 0.5 })).toEqual([50, 100, 200, 250]);
    expect(await run({ jitter: 0.2, random: () => 0 })).toEqual([80, 160, 320, 400]);
    expect(await run({ jitter: "full", random: () => 0 })).toEqual([0, 0, 0, 0]);
  });

  it("aborting during a pause ends the call at once and does not run the tool again", async () => {
    vi.useFakeTimers();
    const hooks = new ToolHooks();
    hooks.use(retry({ retries: 3, minDelayMs: 1_000, jitter: "none" }));
    const api = flaky(10);
    const controller = new AbortController();
    const pending = hooks.invoke(api.tool, {}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new Error("user cancelled"));
    await expect(pending).resolves.toMatchObject({
      status: "error",
      result: expect.stringContaining("user cancelled"),
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.calls()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a custom sleep that ignores the signal cannot keep an aborted call waiting", async () => {
    const hooks = new ToolHooks();
    hooks.use(retry({ retries: 3, sleep: () => new Promise<void>(() => {}) }));
    const api = flaky(10);
    const controller = new AbortController();
    const pending = hooks.invoke(api.tool, {}, { signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort("stop");
    await expect(pending).resolves.toMatchObject({ status: "error", error: "stop" });
    expect(api.calls()).toBe(1);
  });

  it("does not retry an attempt that failed because the call was aborted", async () => {
    const hooks = new ToolHooks();
    const { pack, pauses } = quick({ retries: 3 });
    hooks.use(pack);
    const controller = new AbortController();
    const cancelling = defineTool({
      name: "cancelling",
      execute: () => {
        controller.abort("gone");
        throw new Error("aborted mid-flight");
      },
    });
    const outcome = await hooks.invoke(cancelling, {}, { signal: controller.signal });
    expect(outcome.result).toMatch(/aborted mid-flight$/);
    expect(pauses).toEqual([]);
  });

  it("does not start when the call is already aborted", async () => {
    const hooks = new ToolHooks();
    hooks.use(quick().pack);
    const api = flaky(0);
    const outcome = await hooks.invoke(api.tool, {}, { signal: AbortSignal.abort("late") });
    expect(outcome).toMatchObject({ status: "error", error: "late" });
    expect(api.calls()).toBe(0);
  });

  it("hands every attempt the call's signal", async () => {
    const hooks = new ToolHooks();
    hooks.use(quick({ retries: 2 }).pack);
    const api = flaky(2);
    const controller = new AbortController();
    let callSignal: AbortSignal | undefined;
    hooks.before((ctx) => {
      callSignal = ctx.signal;
    });
    await hooks.invoke(api.tool, {}, { signal: controller.signal });
    // The call's own signal, which follows the caller's: the same one for every attempt.
    expect(api.signals).toHaveLength(3);
    expect(new Set(api.signals)).toEqual(new Set([callSignal]));
  });

  it("only wraps the tools it is given; a substituted result is not retried", async () => {
    const hooks = new ToolHooks();
    hooks.use(quick({ retries: 2, tools: "db_*" }).pack);
    const db = flaky(1, "db_query");
    const web = flaky(1, "web");
    expect(await hooks.invoke(db.tool, {})).toMatchObject({ status: "ok" });
    expect(await hooks.invoke(web.tool, {})).toMatchObject({ status: "error" });

    const cached = new ToolHooks();
    cached.use(quick().pack);
    cached.use(async (ctx) => ctx.respond("from cache"));
    let state: unknown = "unset";
    cached.after((ctx) => {
      state = ctx.state.retry;
    });
    expect(await cached.invoke(db.tool, {})).toMatchObject({ status: "ok", result: "from cache" });
    expect(state).toBeUndefined();
  });

  it("reports each retry to onRetry; a throwing onRetry stops with its error", async () => {
    const hooks = new ToolHooks();
    const events: string[] = [];
    hooks.use(
      quick({ retries: 2, onRetry: (e) => events.push(`${e.ctx.toolName} #${e.attempt} ${e.delayMs}ms`) }).pack,
    );
    await hooks.invoke(flaky(2).tool, {});
    expect(events).toEqual(["flaky_api #1 100ms", "flaky_api #2 200ms"]);

    const strict = new ToolHooks();
    strict.use(
      quick({
        onRetry: () => {
          throw new Error("budget exhausted");
        },
      }).pack,
    );
    const api = flaky(5);
    expect((await strict.invoke(api.tool, {})).result).toMatch(/budget exhausted$/);
    expect(api.calls()).toBe(1);
  });

  it("rejects bad options eagerly", () => {
    expect(() => retry(null as never)).toThrow(/^toolware\/retry: /);
    expect(() => retry({ retries: -1 })).toThrow("toolware/retry: `retries` must be a whole number");
    expect(() => retry({ retries: 1.5 })).toThrow(/retries/);
    expect(() => retry({ minDelayMs: -5 })).toThrow(/minDelayMs/);
    expect(() => retry({ minDelayMs: 100, maxDelayMs: 50 })).toThrow(/maxDelayMs/);
    expect(() => retry({ factor: 0.5 })).toThrow(/factor/);
    expect(() => retry({ jitter: 2 })).toThrow(/jitter/);
    expect(() => retry({ jitter: "half" as never })).toThrow(/jitter/);
    expect(() => retry({ retryOn: true as never })).toThrow(/`retryOn` must be a function/);
    expect(() => retry({ sleep: 1 as never })).toThrow(/sleep/);
  });

  it("gives every option mistake a code, and refuses unknown keys", () => {
    for (const [options, code] of [
      [{ retries: -1 }, "TOOLWARE_INVALID_OPTION"],
      [{ jitter: "half" }, "TOOLWARE_INVALID_OPTION"],
      [{ retrys: 5 }, "TOOLWARE_UNKNOWN_OPTION"],
    ] as const) {
      let thrown: unknown;
      try {
        retry(options as RetryOptions);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect(toolwareCode(thrown)).toBe(code);
      expect((thrown as Error).message).toMatch(/^toolware\/retry: /);
    }
    expect(() => retry({ retrys: 5 } as never)).toThrow("toolware/retry: unknown option `retrys` (expected one of:");
  });

  it("does not re-run a tool whose result cannot be formatted: it ran, its side effects happened", async () => {
    const hooks = new ToolHooks();
    hooks.use(quick({ retries: 3 }).pack);
    let runs = 0;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const tool = defineTool({
      name: "charge_card",
      execute: () => {
        runs++;
        return cyclic;
      },
    });
    const outcome = await hooks.invoke(tool, {});
    expect(runs).toBe(1);
    expect(outcome).toMatchObject({ status: "error", raw: cyclic, error: { code: "TOOLWARE_UNSERIALIZABLE_RESULT" } });
  });

  it("reads the custom sleep once and calls it as a plain function", async () => {
    const seen: unknown[] = [];
    const options: RetryOptions = {
      retries: 2,
      jitter: "none",
      minDelayMs: 5,
      sleep: function (this: unknown, ms: number) {
        seen.push(this, ms);
        return Promise.resolve();
      },
    };
    const hooks = new ToolHooks();
    hooks.use(retry(options));
    // Swapping the option afterwards must not change the pack that was built.
    options.sleep = () => Promise.reject(new Error("swapped in later"));
    const api = flaky(2);
    const outcome = await hooks.invoke(api.tool, {});
    expect(outcome).toMatchObject({ status: "ok", result: "ok after 3" });
    expect(seen).toEqual([undefined, 5, undefined, 10]);
  });

  it("a custom sleep that returns no promise pauses for nothing; one that throws ends the call with its error", async () => {
    const hooks = new ToolHooks();
    hooks.use(retry({ retries: 1, sleep: (() => undefined) as never, tools: "flaky_api" }));
    const api = flaky(1);
    await expect(hooks.invoke(api.tool, {})).resolves.toMatchObject({ status: "ok", result: "ok after 2" });

    const failing = new ToolHooks();
    failing.use(
      retry({
        retries: 3,
        sleep: () => {
          throw new Error("no clock");
        },
      }),
    );
    const other = flaky(5, "other_api");
    const outcome = await failing.invoke(other.tool, {});
    expect(outcome).toMatchObject({ status: "error", error: { message: "no clock" } });
    expect(other.calls()).toBe(1);
  });
});
