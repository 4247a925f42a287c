import { type AgentFilter, definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { observerOptions } from "../internal/observer-options.js";
import { checkFunction, checkKeys, checkOptionsObject, checkPriority, ownOptions } from "../internal/options.js";
import { isThenable } from "../internal/thenable.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import type { AnalyticsSnapshot } from "./stats.js";
import {
  type AnalyticsCallRecord,
  type AnalyticsStore,
  checkSampleSize,
  type MemoryAnalyticsStore,
  memoryAnalyticsStore,
} from "./store.js";

export type { ToolSelector } from "../internal/tool-selector.js";

export {
  bucketPercentile,
  LATENCY_BUCKET_COUNT,
  LATENCY_BUCKETS_MS,
  latencyBucket,
} from "./histogram.js";
export { type AnalyticsSnapshot, type DurationStats, nearestRank, type ToolStats } from "./stats.js";
export {
  type AnalyticsCallRecord,
  type AnalyticsStore,
  type MemoryAnalyticsStore,
  type MemoryAnalyticsStoreOptions,
  memoryAnalyticsStore,
} from "./store.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** Start times of the analytics packs timing this call, one per pack instance. */
    analyticsStartedAt?: { [pack: symbol]: number };
  }
}

/** Options of {@link analytics}; `St` is the type of the store given (it decides what `stats()` answers). */
export interface AnalyticsOptions<St extends AnalyticsStore = MemoryAnalyticsStore> {
  /** Clock in milliseconds. Default `performance.now`. */
  now?: () => number;
  /** Only count these tools. Default: every tool. */
  tools?: ToolSelector;
  /** Only count these agents' calls. Default: every call. */
  agents?: AgentFilter;
  /**
   * Chain position. Default 1000: outermost, so it sees calls that inner hooks
   * block or answer from a cache, and times everything they do.
   */
  priority?: number;
  /**
   * How many recent durations per tool the percentiles are computed over. Default 1000. For the
   * default in-memory store only: with `store`, give it to `memoryAnalyticsStore` instead.
   */
  sampleSize?: number;
  /** Called after each call is counted, e.g. to export metrics. A throw is reported and ignored. */
  onCall?: (record: AnalyticsCallRecord) => void;
  /**
   * Where the counters live. Default: a fresh in-memory store for this pack. Share one (e.g.
   * `redisAnalyticsStore` from `@toolware/redis`) so every process counts into the same totals.
   */
  store?: St;
}

/**
 * The API the analytics pack adds. `S` is what `stats()` answers: a plain snapshot with the
 * in-memory store, a promise of one with a shared store; `R` likewise for `reset()`.
 */
export interface AnalyticsPackApi<S = AnalyticsSnapshot, R = void> {
  /** A snapshot (a copy) of the counters, per tool, per agent role and in total. */
  stats(): S;
  /** Zeroes every counter. */
  reset(): R;
}

/** The pack {@link analytics} returns. */
export type AnalyticsPack<St extends AnalyticsStore = MemoryAnalyticsStore> = Pack<
  AnalyticsPackApi<ReturnType<St["snapshot"]>, ReturnType<St["reset"]>>
>;

const PREFIX = "toolware/analytics";
const OPTION_KEYS = ["now", "tools", "agents", "priority", "sampleSize", "onCall", "store"];
const METHODS = ["record", "snapshot", "reset"] as const;

function validate(options: AnalyticsOptions<AnalyticsStore>): void {
  checkOptionsObject(options, `${PREFIX}: analytics() takes an options object`);
  checkKeys(options, OPTION_KEYS, PREFIX);
  const { now, priority, sampleSize, onCall, store } = options;
  checkFunction(now, "now", PREFIX);
  checkFunction(onCall, "onCall", PREFIX);
  checkPriority(priority, PREFIX);
  checkSampleSize(sampleSize);
  if (store === undefined) return;
  const s = store as Partial<Record<(typeof METHODS)[number], unknown>> | null;
  if (s === null || typeof s !== "object" || METHODS.some((m) => typeof s[m] !== "function")) {
    throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`store\` must implement ${METHODS.join(", ")}`);
  }
  // A sample size the given store would never see must not pass for one that applies.
  if (sampleSize !== undefined) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`sampleSize\` is for the default store; with \`store\`, give it to memoryAnalyticsStore({ sampleSize })`,
    );
  }
}

// A custom store's snapshot that is no snapshot would surface later as "cannot read totals of undefined".
function checkSnapshot(snapshot: unknown): AnalyticsSnapshot {
  const s = snapshot as Partial<Record<keyof AnalyticsSnapshot, unknown>> | null;
  if (
    s === null ||
    typeof s !== "object" ||
    (["tools", "agents", "totals"] as const).some((k) => s[k] === null || typeof s[k] !== "object")
  ) {
    throw packTypeError(
      "TOOLWARE_INVALID_RETURN",
      `${PREFIX}: the store's snapshot() must return { tools, agents, totals }, got ${shown(snapshot)}`,
    );
  }
  return snapshot as AnalyticsSnapshot;
}

function checkedSnapshot(
  snapshot: AnalyticsSnapshot | PromiseLike<AnalyticsSnapshot>,
): AnalyticsSnapshot | Promise<AnalyticsSnapshot> {
  return isThenable(snapshot) ? Promise.resolve(snapshot).then(checkSnapshot) : checkSnapshot(snapshot);
}

/**
 * Counts tool calls per tool: how many, how they ended (ok, failed, blocked,
 * answered from a cache) and how long they took (mean, p50/p95/p99). The
 * seed's "tool usage analytics", without writing into `toolInput`: start
 * times live in `ctx.state`. An observer: it fails open (`onError: "continue"`).
 *
 * @example
 * ```ts
 * const usage = analytics();
 * hooks.use(usage);
 * await hooks.invoke(search, { query: "toolware" });
 * const { count, failures, duration } = usage.stats().tools.web_search!;
 * console.log(`${count} calls, ${failures} failures, p95 ${duration?.p95Ms.toFixed(1)} ms`);
 * ```
 */
export function analytics<St extends AnalyticsStore = MemoryAnalyticsStore>(
  options: AnalyticsOptions<St> = {},
): AnalyticsPack<St> {
  options = ownOptions(options, PREFIX);
  validate(options);
  const clock = options.now ?? (() => performance.now());
  const onCall = options.onCall;
  const store: AnalyticsStore = options.store ?? memoryAnalyticsStore({ sampleSize: options.sampleSize ?? 1000 });
  const id = Symbol("analytics");

  function analyticsStart(ctx: ToolCallHookContext): void {
    const state = ctx.state;
    if (state.analyticsStartedAt === undefined) state.analyticsStartedAt = {};
    state.analyticsStartedAt[id] = clock();
  }

  function analyticsRecord(ctx: ToolCallHookContext): void {
    const status = ctx.status;
    const started = ctx.state.analyticsStartedAt?.[id];
    const durationMs = started === undefined || status === "blocked" ? undefined : clock() - started;
    const substituted = status === "ok" && !ctx.toolRan;
    const record: AnalyticsCallRecord = {
      toolName: ctx.toolName,
      agentRole: ctx.agent?.role,
      callId: ctx.callId,
      status,
      substituted,
      durationMs,
    };
    const stored = store.record(record);
    // Never awaited: counting into a shared store must not make the call wait for it.
    if (isThenable(stored)) stored.then(undefined, (error: unknown) => ctx.reportError("analytics.store", error));
    onCall?.(record);
  }

  const hookOptions = observerOptions(options, 1000, "toolware/analytics");

  return definePack({
    name: "analytics",
    stateful: true,
    // At equal priority after-hooks sit outside before-hooks, so the record
    // step wraps the start step and every hook inside both.
    hooks: [
      { kind: "before", fn: analyticsStart, options: { ...hookOptions, name: "start" } },
      { kind: "after", fn: analyticsRecord, options: { ...hookOptions, name: "record" } },
    ],
    stats: () => checkedSnapshot(store.snapshot()) as ReturnType<St["snapshot"]>,
    reset: () => store.reset() as ReturnType<St["reset"]>,
  });
}
