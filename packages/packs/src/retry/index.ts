import { definePack, type ExecuteTool, type Pack, type ToolCallHookContext, ToolwareTypeError } from "@toolware/core";
import { shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject, MAX_TIMER_MS, ownOptions } from "../internal/options.js";
import { type ToolSelector, toolFilter } from "../internal/tool-selector.js";

export type { ToolSelector } from "../internal/tool-selector.js";

/** How the retried tool's attempts went; on `ctx.state.retry` for the hooks of the call. */
export interface RetryState {
  /** Attempts started so far (1 when the first one succeeded). */
  attempts: number;
  /** The error of every failed attempt, oldest first. */
  errors: unknown[];
  /** The pause before each retry, in milliseconds. */
  delaysMs: number[];
}

declare module "@toolware/core" {
  interface ToolCallState {
    /** Set by the retry pack when it wraps the tool. */
    retry?: RetryState;
  }
}

/** What `onRetry` receives before each pause. */
export interface RetryEvent {
  readonly ctx: ToolCallHookContext;
  readonly error: unknown;
  /** The attempt that just failed, from 1. */
  readonly attempt: number;
  readonly delayMs: number;
}

/** Options of {@link retry}. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2 (three attempts). */
  retries?: number;
  /** The pause before the first retry, before jitter. Default 200. */
  minDelayMs?: number;
  /** The longest pause, before jitter. Default 5000. */
  maxDelayMs?: number;
  /** Each pause is `factor` times the previous one. Default 2. */
  factor?: number;
  /** `"full"`: a random pause up to the computed one; `"none"`: exactly it; a number j in [0, 1]: between (1 − j)× and 1×. Default `"full"`. */
  jitter?: "full" | "none" | number;
  /** Whether to retry after `error` on attempt `attempt` (from 1). Default: every error. */
  retryOn?: (error: unknown, attempt: number, ctx: ToolCallHookContext) => boolean;
  /** Only retry these tools. Default: every tool. */
  tools?: ToolSelector;
  /**
   * Waits `ms`; should reject when `signal` aborts (it is raced with it anyway). Read once, when
   * the pack is made, and called as a plain function. If it throws or rejects, retrying stops
   * with its error. Default: a timer.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the jitter. Default `Math.random`. */
  random?: () => number;
  /** Told about every retry before its pause; if it throws, retrying stops with its error. */
  onRetry?: (event: RetryEvent) => void;
}

const OPTION_KEYS = [
  "retries",
  "minDelayMs",
  "maxDelayMs",
  "factor",
  "jitter",
  "retryOn",
  "tools",
  "sleep",
  "random",
  "onRetry",
];

// String() of a Proxy or of an object whose toString throws would throw in place of the message.
function said(value: unknown): string {
  return typeof value === "object" && value !== null ? shown(value) : String(value);
}

function fail(message: string): never {
  throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `toolware/retry: ${message}`);
}

function checkFunction(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function") fail(`\`${name}\` must be a function`);
}

function timerSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

// A custom sleep may ignore the signal: an abort must still end the wait at once.
function raceAbort(waiting: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    waiting.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Re-runs a failing tool with exponential backoff and jitter. Only the tool re-runs (through
 * `ctx.wrapExecution`): before/after hooks and middlewares run once per call. Stops at once
 * when the call's signal (or an enclosing `timeout`) aborts, also in the middle of a pause.
 * When every attempt failed the call fails with the last error.
 *
 * Composition: the first hook to wrap the execution is the outermost. With `timeout` registered
 * before `retry`, one limit covers all attempts and pauses; with `retry` first, each attempt
 * gets its own limit and a timed-out attempt is retried.
 *
 * @example
 * ```ts
 * hooks.use(retry({ retries: 3, minDelayMs: 100, retryOn: (e) => !(e instanceof TypeError) }));
 * hooks.after((ctx) => console.log(ctx.toolName, "attempts:", ctx.state.retry?.attempts));
 * ```
 */
export function retry(options: RetryOptions = {}): Pack {
  options = ownOptions(options, "toolware/retry");
  checkOptionsObject(options, "toolware/retry: retry() takes an options object");
  checkKeys(options, OPTION_KEYS, "toolware/retry", { suggest: false });
  const { retries = 2, minDelayMs = 200, maxDelayMs = 5_000, factor = 2, jitter = "full", tools } = options;
  if (!Number.isInteger(retries) || retries < 0) fail(`\`retries\` must be a whole number ≥ 0, got ${said(retries)}`);
  if (!Number.isFinite(minDelayMs) || minDelayMs < 0) fail(`\`minDelayMs\` must be ≥ 0, got ${said(minDelayMs)}`);
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < minDelayMs || maxDelayMs > MAX_TIMER_MS) {
    fail(
      `\`maxDelayMs\` must be a finite number ≥ minDelayMs (${minDelayMs}), at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), got ${said(maxDelayMs)}`,
    );
  }
  if (!Number.isFinite(factor) || factor < 1) fail(`\`factor\` must be ≥ 1, got ${said(factor)}`);
  const share = jitter === "full" ? 1 : jitter === "none" ? 0 : jitter;
  if (typeof share !== "number" || !(share >= 0 && share <= 1)) {
    fail(
      `\`jitter\` must be "full", "none" or a number in [0, 1], got ${typeof jitter === "string" ? JSON.stringify(jitter) : said(jitter)}`,
    );
  }
  checkFunction(options.retryOn, "retryOn");
  checkFunction(options.sleep, "sleep");
  checkFunction(options.random, "random");
  checkFunction(options.onRetry, "onRetry");
  const retryOn = options.retryOn;
  const onRetry = options.onRetry;
  const random = options.random ?? Math.random;
  // Read once, called as a plain function: changing the options object later changes nothing, and
  // the sleep never sees the options as its `this`. A sleep that returns no promise pauses for nothing.
  const customSleep = options.sleep;
  const sleep =
    customSleep === undefined
      ? timerSleep
      : (ms: number, signal: AbortSignal) =>
          raceAbort(new Promise<void>((resolve) => resolve(customSleep(ms, signal))), signal);

  const delayFor = (attempt: number): number => {
    const base = Math.min(maxDelayMs, minDelayMs * factor ** (attempt - 1));
    if (share === 0) return base;
    const r: unknown = random();
    // Outside [0, 1] a pause would be negative, NaN or past maxDelayMs (a timer that long fires at once): a bug
    // to fix, not to hide, like a throwing retryOn.
    if (typeof r !== "number" || !(r >= 0 && r <= 1)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_RETURN",
        `toolware/retry: \`random\` returned ${typeof r === "string" ? JSON.stringify(r) : said(r)}, not a number in [0, 1)`,
      );
    }
    return Math.round(base * (1 - share + share * r));
  };

  async function retrying(execute: ExecuteTool, ctx: ToolCallHookContext, signal: AbortSignal): Promise<unknown> {
    const state: RetryState = { attempts: 0, errors: [], delaysMs: [] };
    ctx.state.retry = state;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw signal.reason;
      state.attempts = attempt;
      try {
        // Pass nothing down: the tool keeps the signal the wrappers outside chose.
        return await execute();
      } catch (error) {
        state.errors.push(error);
        if (attempt > retries || signal.aborted) throw error;
        if (retryOn !== undefined && !retryOn(error, attempt, ctx)) throw error;
        const delayMs = delayFor(attempt);
        state.delaysMs.push(delayMs);
        onRetry?.({ ctx, error, attempt, delayMs });
        await sleep(delayMs, signal);
      }
    }
  }

  return definePack({
    name: "retry",
    hooks: [
      {
        kind: "before",
        fn: function retryTool(ctx) {
          ctx.wrapExecution(retrying);
        },
        options: tools === undefined ? {} : { tools: toolFilter(tools, "toolware/retry: tools") },
      },
    ],
  });
}
