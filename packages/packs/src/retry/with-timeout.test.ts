import { defineTool, ToolHooks } from "@toolware/core";
import { ToolTimeoutError, timeout } from "@toolware/packs/timeout";
import { afterEach, describe, expect, it, vi } from "vitest";
import { retry } from "./index.js";

// How retry and timeout nest: the first hook to wrap the execution is the outermost.

function failing() {
  const signals: AbortSignal[] = [];
  const tool = defineTool({
    name: "flaky_api",
    execute: (_input, { signal }) => {
      signals.push(signal);
      throw new Error(`boom ${signals.length}`);
    },
  });
  return { tool, signals, calls: () => signals.length };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("retry with timeout", () => {
  it("timeout registered first bounds all attempts: the pause is cut short", async () => {
    vi.useFakeTimers();
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 1_500 }));
    hooks.use(retry({ retries: 5, minDelayMs: 1_000, jitter: "none" }));
    const api = failing();
    const pending = hooks.invoke(api.tool, {});
    await vi.advanceTimersByTimeAsync(1_500);
    const outcome = await pending;
    expect(outcome.error).toBeInstanceOf(ToolTimeoutError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.calls()).toBe(2); // t=0 and t=1000; the pause from 1000 to 3000 was aborted at 1500
    expect(api.signals[1]?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("retry registered first gives each attempt its own limit and retries timeouts", async () => {
    vi.useFakeTimers();
    const hooks = new ToolHooks();
    hooks.use(retry({ retries: 2, jitter: "none", minDelayMs: 10, sleep: () => Promise.resolve() }));
    hooks.use(timeout({ ms: 100 }));
    const signals: AbortSignal[] = [];
    let calls = 0;
    const slowThenFast = defineTool({
      name: "slow_then_fast",
      execute: (_input, { signal }) => {
        signals.push(signal);
        calls++;
        return calls < 3 ? new Promise<never>(() => {}) : "finally";
      },
    });
    let attempts: number | undefined;
    hooks.after((ctx) => {
      attempts = ctx.state.retry?.attempts;
    });
    const pending = hooks.invoke(slowThenFast, {});
    await vi.advanceTimersByTimeAsync(200);
    expect(await pending).toMatchObject({ status: "ok", result: "finally" });
    expect(attempts).toBe(3);
    expect(signals.map((s) => s.aborted)).toEqual([true, true, false]);
    expect(signals[0]?.reason).toBeInstanceOf(ToolTimeoutError);
  });
});
