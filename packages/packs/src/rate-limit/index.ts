import { definePack, type Pack, type ToolCallHookContext, type ToolFilter } from "@toolware/core";
import { type Duration, formatDuration, parseDuration } from "./duration.js";
import {
  memoryRateLimitStore,
  type RateLimitAlgorithm,
  type RateLimitDecision,
  type RateLimitRequest,
  type RateLimitStore,
} from "./store.js";

export { type Duration, type DurationUnit, formatDuration, parseDuration } from "./duration.js";
export {
  type MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  memoryRateLimitStore,
  type RateLimitAlgorithm,
  type RateLimitDecision,
  type RateLimitRequest,
  type RateLimitStore,
} from "./store.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** The rate limiter's decision for this call (the innermost limiter's, when several apply). */
    rateLimit?: RateLimitDecision & { readonly key: string };
  }
}

/** What a call is counted under: built-in groupings, or your own key. */
export type RateLimitKey = "tool" | "agent" | "global" | "tool+agent" | ((ctx: ToolCallHookContext) => string);

/** What a limit message (and `onLimited`) gets to describe a refused call. */
export interface RateLimitInfo {
  /** The key the call was counted under (without `keyPrefix`). */
  readonly key: string;
  readonly toolName: string;
  readonly max: number;
  readonly windowMs: number;
  readonly retryAfterMs: number;
  readonly ctx: ToolCallHookContext;
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Calls allowed per window (sliding window) or bucket capacity (token bucket); a positive integer. */
  max: number;
  /** The window: milliseconds or `"500ms"`, `"10s"`, `"1m"`, `"1h"`, `"1d"`. */
  per: Duration;
  /** What calls are counted under. Default `"tool"`. */
  key?: RateLimitKey;
  /** Default `"sliding-window"` (exact). `"token-bucket"` allows bursts of `max`, refilled at `max` per `per`. */
  algorithm?: RateLimitAlgorithm;
  /** Where counters live. Default: a fresh in-memory store for this limiter. */
  store?: RateLimitStore;
  /** Prepended to every key, so limiters sharing a store do not share counters. Default `""`. */
  keyPrefix?: string;
  /** Clock in milliseconds. Default `Date.now` (stores shared between processes need wall time). */
  now?: () => number;
  /** What the agent is told (after `Tool execution blocked by hook. Tool: x. Reason: `). */
  message?: string | ((info: RateLimitInfo) => string);
  /** Called for every refused call, e.g. to log it; a throw here fails the hook (and so blocks). */
  onLimited?: (info: RateLimitInfo) => void;
  /** Limits only these tools (same filters as hook options). Default: every tool the pack is registered for. */
  tools?: ToolFilter;
  /** Chain position. Default 0; put it below a cache's priority so cache hits spend no quota. */
  priority?: number;
}

/** The pack {@link rateLimit} returns. */
export type RateLimitPack = Pack<{
  /** The store counting calls. */
  readonly store: RateLimitStore;
  /** Forgets the counters of one key (as passed to `message`, without prefix), or all of this limiter's. */
  reset(key?: string): void | Promise<void>;
}>;

const ALGORITHMS: readonly RateLimitAlgorithm[] = ["sliding-window", "token-bucket"];
const OPTION_KEYS = new Set([
  "max",
  "per",
  "key",
  "algorithm",
  "store",
  "keyPrefix",
  "now",
  "message",
  "onLimited",
  "tools",
  "priority",
]);

function keyFunction(key: RateLimitKey): (ctx: ToolCallHookContext) => string {
  switch (key) {
    case "tool":
      return (ctx) => `tool:${ctx.toolName}`;
    case "agent":
      return (ctx) => `agent:${ctx.agent?.role ?? "(none)"}`;
    case "global":
      return () => "global";
    case "tool+agent":
      return (ctx) => `tool:${ctx.toolName}|agent:${ctx.agent?.role ?? "(none)"}`;
    default:
      if (typeof key === "function") {
        return (ctx) => {
          const k = key(ctx);
          if (typeof k !== "string")
            throw new TypeError(`toolware/rate-limit: \`key\` returned ${typeof k}, not a string`);
          return k;
        };
      }
      throw new TypeError(
        `toolware/rate-limit: \`key\` must be "tool", "agent", "global", "tool+agent" or a function, got ${JSON.stringify(key)}`,
      );
  }
}

function validate(options: RateLimitOptions): void {
  if (options === null || typeof options !== "object") {
    throw new TypeError("toolware/rate-limit: rateLimit() takes an options object { max, per }");
  }
  for (const k of Object.keys(options)) {
    if (!OPTION_KEYS.has(k)) throw new TypeError(`toolware/rate-limit: unknown option \`${k}\``);
  }
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new TypeError(`toolware/rate-limit: \`max\` must be a positive integer, got ${String(options.max)}`);
  }
  const { algorithm, store, now, message, onLimited, keyPrefix, priority } = options;
  if (algorithm !== undefined && !ALGORITHMS.includes(algorithm)) {
    throw new TypeError(
      `toolware/rate-limit: \`algorithm\` must be "sliding-window" or "token-bucket", got ${JSON.stringify(algorithm)}`,
    );
  }
  if (store !== undefined && (store === null || typeof store.hit !== "function")) {
    throw new TypeError("toolware/rate-limit: `store` must implement hit(key, request)");
  }
  if (now !== undefined && typeof now !== "function")
    throw new TypeError("toolware/rate-limit: `now` must be a function");
  if (message !== undefined && typeof message !== "string" && typeof message !== "function") {
    throw new TypeError("toolware/rate-limit: `message` must be a string or a function");
  }
  if (onLimited !== undefined && typeof onLimited !== "function") {
    throw new TypeError("toolware/rate-limit: `onLimited` must be a function");
  }
  if (keyPrefix !== undefined && typeof keyPrefix !== "string") {
    throw new TypeError("toolware/rate-limit: `keyPrefix` must be a string");
  }
  if (priority !== undefined && !Number.isFinite(priority)) {
    throw new TypeError(`toolware/rate-limit: \`priority\` must be a finite number, got ${String(priority)}`);
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function checkDecision(d: unknown): RateLimitDecision {
  const r = d as RateLimitDecision | null | undefined;
  if (r === null || typeof r !== "object" || typeof r.allowed !== "boolean") {
    throw new TypeError("toolware/rate-limit: the store's hit() must return { allowed, remaining, retryAfterMs }");
  }
  return r;
}

/**
 * Limits how often tools are called: at most `max` calls `per` window, counted
 * per tool, agent, tool and agent, globally, or by your own key. A refused
 * call is blocked with a message that tells the agent when to retry. A guard:
 * it fails closed (`onError: "block"`), so a broken store blocks calls.
 *
 * Exact under concurrency: the in-memory store checks and records in one
 * synchronous step; other stores must make `hit` atomic (see {@link RateLimitStore}).
 *
 * @example
 * ```ts
 * const limit = rateLimit({ max: 10, per: "1m", key: "tool+agent" });
 * hooks.use(limit);
 * const out = await hooks.invoke(search, { query: "x" }, { agent });
 * // 11th call within a minute: out.status === "blocked",
 * // out.reason === "Rate limit exceeded for tool:web_search|agent:researcher: at most 10 calls per 1m. Retry after 42s."
 * ```
 */
export function rateLimit(options: RateLimitOptions): RateLimitPack {
  validate(options);
  const { max, algorithm = "sliding-window", keyPrefix = "", onLimited, message } = options;
  const windowMs = parseDuration(options.per, "per");
  const store = options.store ?? memoryRateLimitStore();
  const clock = options.now ?? Date.now;
  const keyOf = keyFunction(options.key ?? "tool");
  const per = formatDuration(windowMs);

  const describe = (ctx: ToolCallHookContext, key: string, d: RateLimitDecision): string => {
    const info: RateLimitInfo = { key, toolName: ctx.toolName, max, windowMs, retryAfterMs: d.retryAfterMs, ctx };
    onLimited?.(info);
    if (typeof message === "string") return message;
    if (message !== undefined) return message(info);
    const retry = Number.isFinite(d.retryAfterMs) && d.retryAfterMs > 0 ? formatDuration(d.retryAfterMs) : "later";
    return `Rate limit exceeded for ${key}: at most ${max} calls per ${per}. Retry after ${retry}.`;
  };

  const apply = (ctx: ToolCallHookContext, key: string, raw: unknown): void => {
    const d = checkDecision(raw);
    ctx.state.rateLimit = { ...d, key };
    if (!d.allowed) ctx.block(describe(ctx, key, d));
  };

  // Sync stores keep this hook promise-free; the hit happens before any await either way.
  function rateLimitHook(ctx: ToolCallHookContext): void | Promise<void> {
    const key = keyOf(ctx);
    const request: RateLimitRequest = { algorithm, max, windowMs, now: clock() };
    const decision = store.hit(keyPrefix + key, request);
    if (isThenable(decision)) return Promise.resolve(decision).then((d) => apply(ctx, key, d));
    apply(ctx, key, decision);
  }

  return definePack({
    name: "rate-limit",
    hooks: [
      {
        kind: "before",
        fn: rateLimitHook,
        options: {
          name: "rateLimit",
          onError: "block",
          priority: options.priority ?? 0,
          ...(options.tools === undefined ? {} : { tools: options.tools }),
        },
      },
    ],
    store,
    reset(key?: string): void | Promise<void> {
      return store.reset?.(key === undefined ? undefined : keyPrefix + key);
    },
  });
}
