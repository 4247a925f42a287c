import type { CallStatus } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject, ownOptions } from "../internal/options.js";
import { type AnalyticsSnapshot, Counter } from "./stats.js";

/** One finished call, as the store and `onCall` receive it. */
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

/**
 * Where the analytics pack keeps its counters. `record` is called once per finished call and is
 * never awaited: a store that answers with a promise must not make the call wait, and a promise
 * that rejects is reported (`onListenerError`), never thrown. `snapshot` and `reset` answer with
 * a value (the in-memory store) or a promise of one (a shared store), and `stats()` and `reset()`
 * of the pack return what they return.
 *
 * @example
 * ```ts
 * const usage = analytics({ store: memoryAnalyticsStore({ sampleSize: 200 }) });
 * ```
 */
export interface AnalyticsStore {
  record(call: AnalyticsCallRecord): void | Promise<void>;
  snapshot(): AnalyticsSnapshot | Promise<AnalyticsSnapshot>;
  reset(): void | Promise<void>;
}

/** The default store: synchronous, per process, with exact percentiles. */
export interface MemoryAnalyticsStore extends AnalyticsStore {
  record(call: AnalyticsCallRecord): void;
  snapshot(): AnalyticsSnapshot;
  reset(): void;
}

/** Options of {@link memoryAnalyticsStore}. */
export interface MemoryAnalyticsStoreOptions {
  /** How many recent durations per tool (and agent, and in total) the percentiles are computed over. Default 1000. */
  sampleSize?: number;
}

const PREFIX = "toolware/analytics";

/** Checks a `sampleSize`. @internal */
export function checkSampleSize(sampleSize: unknown): void {
  if (sampleSize !== undefined && (!Number.isInteger(sampleSize) || (sampleSize as number) < 1)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`sampleSize\` must be a positive integer, got ${shown(sampleSize)}`,
    );
  }
}

// fromEntries defines own properties, so a tool named "__proto__" stays a plain key.
const snapshotOf = (counters: Map<string, Counter>) =>
  Object.fromEntries([...counters].map(([name, counter]) => [name, counter.snapshot()]));

/**
 * The in-memory analytics store, the pack's default: counters per tool, per agent role and in
 * total, and a ring of the latest `sampleSize` durations each, sorted when read, so percentiles
 * are exact over that window. Recording is O(1) and allocation-free after a name's first call.
 *
 * @example
 * ```ts
 * const store = memoryAnalyticsStore({ sampleSize: 100 });
 * hooks.use(analytics({ store }));
 * store.snapshot().totals.count; // 0
 * ```
 */
export function memoryAnalyticsStore(options: MemoryAnalyticsStoreOptions = {}): MemoryAnalyticsStore {
  options = ownOptions(options, "toolware/analytics: memoryAnalyticsStore()");
  checkOptionsObject(options, `${PREFIX}: memoryAnalyticsStore() takes an options object`);
  checkKeys(options, ["sampleSize"], PREFIX);
  checkSampleSize(options.sampleSize);
  const sampleSize = options.sampleSize ?? 1000;
  let perTool = new Map<string, Counter>();
  let perAgent = new Map<string, Counter>();
  let totals = new Counter(sampleSize);
  const counterOf = (counters: Map<string, Counter>, name: string): Counter => {
    let counter = counters.get(name);
    if (counter === undefined) {
      counter = new Counter(sampleSize);
      counters.set(name, counter);
    }
    return counter;
  };
  return {
    record({ toolName, agentRole, status, substituted, durationMs }) {
      counterOf(perTool, toolName).add(status, substituted, durationMs);
      if (agentRole !== undefined) counterOf(perAgent, agentRole).add(status, substituted, durationMs);
      totals.add(status, substituted, durationMs);
    },
    snapshot() {
      return { tools: snapshotOf(perTool), agents: snapshotOf(perAgent), totals: totals.snapshot() };
    },
    reset() {
      perTool = new Map();
      perAgent = new Map();
      totals = new Counter(sampleSize);
    },
  };
}
