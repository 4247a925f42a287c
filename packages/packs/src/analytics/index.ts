import { type AgentFilter, type CallStatus, definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { observerOptions } from "../internal/observer-options.js";
import { checkFunction, checkKeys, checkOptionsObject, checkPriority } from "../internal/options.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import { type AnalyticsSnapshot, Counter } from "./stats.js";

export type { ToolSelector } from "../internal/tool-selector.js";

export { type AnalyticsSnapshot, type DurationStats, nearestRank, type ToolStats } from "./stats.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** Start times of the analytics packs timing this call, one per pack instance. */
    analyticsStartedAt?: { [pack: symbol]: number };
  }
}

/** One finished call, as `onCall` receives it. */
export interface AnalyticsCallRecord {
  readonly toolName: string;
  readonly agentRole: string | undefined;
  readonly callId: string;
  readonly status: CallStatus;
  /** Answered without running the tool (a cache hit, a dedupe follower). */
  readonly substituted: boolean;
  /** `undefined` for blocked calls and calls whose start the pack did not see. */
  readonly durationMs: number | undefined;
}

/** Options of {@link analytics}. */
export interface AnalyticsOptions {
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
  /** How many recent durations per tool the percentiles are computed over. Default 1000. */
  sampleSize?: number;
  /** Called after each call is counted, e.g. to export metrics. A throw is reported and ignored. */
  onCall?: (record: AnalyticsCallRecord) => void;
}

/** The pack {@link analytics} returns. */
export type AnalyticsPack = Pack<{
  /** A snapshot (a copy) of the counters, per tool and in total. */
  stats(): AnalyticsSnapshot;
  /** Zeroes every counter. */
  reset(): void;
}>;

const PREFIX = "toolware/analytics";
const OPTION_KEYS = ["now", "tools", "agents", "priority", "sampleSize", "onCall"];

function validate(options: AnalyticsOptions): void {
  checkOptionsObject(options, `${PREFIX}: analytics() takes an options object`);
  checkKeys(options, OPTION_KEYS, PREFIX);
  const { now, priority, sampleSize, onCall } = options;
  checkFunction(now, "now", PREFIX);
  checkFunction(onCall, "onCall", PREFIX);
  checkPriority(priority, PREFIX);
  if (sampleSize !== undefined && (!Number.isInteger(sampleSize) || sampleSize < 1)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`sampleSize\` must be a positive integer, got ${shown(sampleSize)}`,
    );
  }
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
export function analytics(options: AnalyticsOptions = {}): AnalyticsPack {
  validate(options);
  const clock = options.now ?? (() => performance.now());
  const sampleSize = options.sampleSize ?? 1000;
  const onCall = options.onCall;
  const id = Symbol("analytics");
  let perTool = new Map<string, Counter>();
  let totals = new Counter(sampleSize);

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
    let counter = perTool.get(ctx.toolName);
    if (counter === undefined) {
      counter = new Counter(sampleSize);
      perTool.set(ctx.toolName, counter);
    }
    counter.add(status, substituted, durationMs);
    totals.add(status, substituted, durationMs);
    onCall?.({
      toolName: ctx.toolName,
      agentRole: ctx.agent?.role,
      callId: ctx.callId,
      status,
      substituted,
      durationMs,
    });
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
    stats(): AnalyticsSnapshot {
      // fromEntries defines own properties, so a tool named "__proto__" stays a plain key.
      const tools = Object.fromEntries([...perTool].map(([name, counter]) => [name, counter.snapshot()]));
      return { tools, totals: totals.snapshot() };
    },
    reset(): void {
      perTool = new Map();
      totals = new Counter(sampleSize);
    },
  });
}
