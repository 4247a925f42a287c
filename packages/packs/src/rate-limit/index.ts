import { definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { type Duration, formatDuration, parseDuration } from "../internal/duration.js";
import { packTypeError, shown } from "../internal/errors.js";
import {
  checkFunction,
  checkKeys,
  checkMessage,
  checkOptionsObject,
  checkPriority,
  guardClock,
  ownOptions,
} from "../internal/options.js";
import { isThenable } from "../internal/thenable.js";
import { type ToolSelector, toolFilter } from "../internal/tool-selector.js";
import {
  isMemoryRateLimitStore,
  memoryRateLimitStore,
  type RateLimitAlgorithm,
  type RateLimitDecision,
  type RateLimitRequest,
  type RateLimitStore,
} from "./store.js";

export { type Duration, type DurationUnit, formatDuration, parseDuration } from "../internal/duration.js";
export type { ToolSelector } from "../internal/tool-selector.js";
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
  tools?: ToolSelector;
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

const PREFIX = "toolware/rate-limit";
const ALGORITHMS: readonly RateLimitAlgorithm[] = ["sliding-window", "token-bucket"];
const OPTION_KEYS = [
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
];
// Names other rate limiters use for these options.
const ALIASES = { windowMs: "per", window: "per", duration: "per", interval: "per", limit: "max", points: "max" };

const invalid = (message: string) => packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);

// Keys are made per call from the tool and agent: the last one is kept, so that a run of calls with the same
// tool (and role) hands the store the same string, whose hash the map lookup then need not compute again.
function keyFunction(key: RateLimitKey): (ctx: ToolCallHookContext) => string {
  switch (key) {
    case "tool": {
      let lastTool: string | undefined;
      let last = "";
      return (ctx) => {
        if (ctx.toolName !== lastTool) {
          lastTool = ctx.toolName;
          last = `tool:${lastTool}`;
        }
        return last;
      };
    }
    case "agent": {
      let lastRole: string | undefined;
      let last = "";
      return (ctx) => {
        // An agent's role is never empty, so `agent:` alone is the key of calls without an agent.
        const role = ctx.agent?.role ?? "";
        if (role !== lastRole) {
          lastRole = role;
          last = `agent:${role}`;
        }
        return last;
      };
    }
    case "global":
      return () => "global";
    case "tool+agent": {
      let lastTool: string | undefined;
      let lastRole: string | undefined;
      let last = "";
      return (ctx) => {
        const role = ctx.agent?.role ?? "";
        if (ctx.toolName !== lastTool || role !== lastRole) {
          lastTool = ctx.toolName;
          lastRole = role;
          // A "|" or "\\" in the tool's name is escaped, so that only one "|agent:" can end the tool part.
          last = `tool:${lastTool.replace(/[\\|]/g, "\\$&")}|agent:${role}`;
        }
        return last;
      };
    }
    default:
      if (typeof key === "function") {
        return (ctx) => {
          const k: unknown = key(ctx);
          if (typeof k !== "string") {
            throw packTypeError("TOOLWARE_INVALID_RETURN", `${PREFIX}: \`key\` returned ${typeof k}, not a string`);
          }
          return k;
        };
      }
      throw invalid(`\`key\` must be "tool", "agent", "global", "tool+agent" or a function, got ${shown(key)}`);
  }
}

function validate(options: RateLimitOptions): void {
  checkOptionsObject(options, `${PREFIX}: rateLimit() takes an options object { max, per }`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: ALIASES });
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw invalid(`\`max\` must be a positive integer, got ${shown(options.max)}`);
  }
  const { algorithm, store, now, message, onLimited, keyPrefix, priority } = options;
  if (algorithm !== undefined && !ALGORITHMS.includes(algorithm)) {
    throw invalid(`\`algorithm\` must be "sliding-window" or "token-bucket", got ${shown(algorithm)}`);
  }
  if (store !== undefined && (store === null || typeof store !== "object" || typeof store.hit !== "function")) {
    throw invalid("`store` must implement hit(key, request)");
  }
  checkFunction(now, "now", PREFIX);
  checkMessage(message, PREFIX);
  checkFunction(onLimited, "onLimited", PREFIX);
  if (keyPrefix !== undefined && typeof keyPrefix !== "string") {
    throw invalid(`\`keyPrefix\` must be a string, got ${shown(keyPrefix)}`);
  }
  checkPriority(priority, PREFIX);
}

// The decision's `allowed`, read once: a getter cannot pass the check as `false` and let the call through as `true`.
function checkedAllowed(d: unknown): boolean {
  const r = d as RateLimitDecision | null | undefined;
  const allowed: unknown = r !== null && typeof r === "object" ? r.allowed : undefined;
  if (typeof allowed !== "boolean") {
    throw packTypeError(
      "TOOLWARE_INVALID_RETURN",
      `${PREFIX}: the store's hit() must return { allowed, remaining, retryAfterMs }, got ${shown(d)}`,
    );
  }
  return allowed;
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
  options = ownOptions(options, PREFIX);
  validate(options);
  const { max, algorithm = "sliding-window", keyPrefix = "", onLimited, message } = options;
  const windowMs = parseDuration(options.per, "per");
  const store = options.store ?? memoryRateLimitStore();
  const clock = guardClock(options.now, PREFIX);
  const keyOf = keyFunction(options.key === undefined ? "tool" : options.key);
  const per = formatDuration(windowMs);

  const describe = (ctx: ToolCallHookContext, key: string, d: RateLimitDecision): string => {
    const info: RateLimitInfo = { key, toolName: ctx.toolName, max, windowMs, retryAfterMs: d.retryAfterMs, ctx };
    onLimited?.(info);
    if (typeof message === "string") return message;
    if (message !== undefined) return message(info);
    const retry = Number.isFinite(d.retryAfterMs) && d.retryAfterMs > 0 ? formatDuration(d.retryAfterMs) : "later";
    return `Rate limit exceeded for ${key}: at most ${max} ${max === 1 ? "call" : "calls"} per ${per}. Retry after ${retry}.`;
  };

  // The in-memory store's decisions have these three fields and no other: a literal copies them faster than
  // a spread. Any other store's decision is spread, extra fields and all.
  const plainDecisions = isMemoryRateLimitStore(store);
  const apply = (ctx: ToolCallHookContext, key: string, raw: unknown): void => {
    const allowed = checkedAllowed(raw);
    const d = raw as RateLimitDecision;
    ctx.state.rateLimit = plainDecisions
      ? { allowed, remaining: d.remaining, retryAfterMs: d.retryAfterMs, key }
      : { ...d, allowed, key };
    if (!allowed) ctx.block(describe(ctx, key, d));
  };

  // The store's key of the last key, so that an unchanged key is not concatenated (and hashed) again.
  let lastKey: string | undefined;
  let lastStoreKey = "";

  // Sync stores keep this hook promise-free; the hit happens before any await either way.
  function rateLimitHook(ctx: ToolCallHookContext): void | Promise<void> {
    const key = keyOf(ctx);
    if (key !== lastKey) {
      lastKey = key;
      lastStoreKey = keyPrefix + key;
    }
    const request: RateLimitRequest = { algorithm, max, windowMs, now: clock() };
    const decision = store.hit(lastStoreKey, request);
    if (isThenable(decision)) return Promise.resolve(decision).then((d) => apply(ctx, key, d));
    apply(ctx, key, decision);
  }

  return definePack({
    name: "rate-limit",
    stateful: true,
    hooks: [
      {
        kind: "before",
        fn: rateLimitHook,
        options: {
          name: "rateLimit",
          onError: "block",
          priority: options.priority ?? 0,
          ...(options.tools === undefined ? {} : { tools: toolFilter(options.tools, `${PREFIX}: tools`) }),
        },
      },
    ],
    store,
    reset(key?: string): void | Promise<void> {
      return store.reset?.(key === undefined ? undefined : keyPrefix + key);
    },
  });
}
