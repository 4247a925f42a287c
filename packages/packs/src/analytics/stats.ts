import type { CallStatus } from "@toolware/core";

/** Durations of the calls that were not blocked, in milliseconds. */
export interface DurationStats {
  /** Timed calls since the start (or the last `reset()`). */
  readonly count: number;
  /** Exact, over every timed call. */
  readonly meanMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly totalMs: number;
  /**
   * Nearest-rank percentiles. The in-memory store: exact, over the last `sampleSize` timed calls.
   * A store keeping a histogram (`buckets`): estimated from it, over every timed call, within
   * 9.1 % of the exact value (see `bucketPercentile`).
   */
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  /** How many calls the percentiles are computed from (at most `sampleSize` in memory). */
  readonly samples: number;
  /**
   * Timed calls per latency bucket (`LATENCY_BUCKETS_MS`), from a store that keeps a histogram
   * rather than samples, such as `redisAnalyticsStore`. Absent with the in-memory store.
   */
  readonly buckets?: readonly number[];
}

/** The counters of one tool (or of all tools, in `totals`). */
export interface ToolStats {
  /** Every call the pack saw end. */
  readonly count: number;
  /** Calls that ended with status `ok` (substituted results included). */
  readonly ok: number;
  /** Calls that ended with status `error` (the tool threw). */
  readonly failures: number;
  /** Calls that ended blocked, by any hook inside the pack (or a failing one). */
  readonly blocked: number;
  /** `ok` calls answered without running the tool (`ctx.respond`: cache hits, dedupe followers). */
  readonly substituted: number;
  /** `null` until a call was timed. */
  readonly duration: DurationStats | null;
}

/** What `stats()` returns: a copy, safe to keep and mutate. */
export interface AnalyticsSnapshot {
  readonly tools: Readonly<Record<string, ToolStats>>;
  /** Per agent role; calls made without an agent only count in `tools` and `totals`. */
  readonly agents: Readonly<Record<string, ToolStats>>;
  readonly totals: ToolStats;
}

/** Mutable counters with a ring of the latest durations. @internal */
export class Counter {
  count = 0;
  ok = 0;
  failures = 0;
  blocked = 0;
  substituted = 0;
  timed = 0;
  totalMs = 0;
  minMs = Number.POSITIVE_INFINITY;
  maxMs = Number.NEGATIVE_INFINITY;
  #ring: Float64Array | undefined;
  #next = 0;
  readonly #size: number;

  constructor(sampleSize: number) {
    this.#size = sampleSize;
  }

  add(status: CallStatus, substituted: boolean, durationMs: number | undefined): void {
    this.count++;
    if (status === "ok") {
      this.ok++;
      if (substituted) this.substituted++;
    } else if (status === "error") this.failures++;
    else this.blocked++;
    if (durationMs === undefined) return;
    this.timed++;
    this.totalMs += durationMs;
    if (durationMs < this.minMs) this.minMs = durationMs;
    if (durationMs > this.maxMs) this.maxMs = durationMs;
    // Allocated on the first timed call only: tools that are always blocked cost no buffer.
    if (this.#ring === undefined) this.#ring = new Float64Array(this.#size);
    this.#ring[this.#next % this.#size] = durationMs;
    this.#next++;
  }

  snapshot(): ToolStats {
    return {
      count: this.count,
      ok: this.ok,
      failures: this.failures,
      blocked: this.blocked,
      substituted: this.substituted,
      duration: this.#durations(),
    };
  }

  #durations(): DurationStats | null {
    if (this.timed === 0 || this.#ring === undefined) return null;
    const samples = Math.min(this.#next, this.#size);
    // Sorting a copy at read time keeps the per-call cost O(1); reads are rare.
    const sorted = this.#ring.slice(0, samples).sort();
    return {
      count: this.timed,
      meanMs: this.totalMs / this.timed,
      minMs: this.minMs,
      maxMs: this.maxMs,
      totalMs: this.totalMs,
      p50Ms: nearestRank(sorted, 50),
      p95Ms: nearestRank(sorted, 95),
      p99Ms: nearestRank(sorted, 99),
      samples,
    };
  }
}

/**
 * The nearest-rank percentile of sorted values: the smallest value with at
 * least p% of the values at or below it (always one of the values).
 *
 * @example
 * ```ts
 * nearestRank([10, 20, 30, 40], 50); // 20
 * nearestRank([10, 20, 30, 40], 95); // 40
 * ```
 */
export function nearestRank(sorted: ArrayLike<number>, p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}
