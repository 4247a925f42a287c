import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject, ownOptions } from "../internal/options.js";
/** How calls are counted: an exact sliding window, or a token bucket that refills continuously. */
export type RateLimitAlgorithm = "sliding-window" | "token-bucket";

/** What the limiter asks the store for one call. */
export interface RateLimitRequest {
  readonly algorithm: RateLimitAlgorithm;
  /** Calls allowed per window (sliding window), or the bucket's capacity (token bucket). */
  readonly max: number;
  /** The window; a token bucket refills `max` tokens per `windowMs`. */
  readonly windowMs: number;
  /** The limiter's clock, in milliseconds. */
  readonly now: number;
}

/** The store's answer: the call was recorded (allowed) or not. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Calls still allowed right now, after this one. */
  readonly remaining: number;
  /** 0 when allowed; otherwise how long until one more call would be allowed. */
  readonly retryAfterMs: number;
}

/**
 * Where the limiter keeps its counters. `hit` must check and record in one
 * atomic step: an allowed call is recorded before `hit` returns, a refused one
 * is not. The in-memory store does it synchronously; a Redis store does it in
 * one Lua script (`EVALSHA`), so it stays exact across processes. `hit` may
 * return a plain value (no promise on the hot path) or a promise.
 *
 * @example
 * ```ts
 * const store: RateLimitStore = {
 *   hit: (key, { algorithm, max, windowMs, now }) => redis.evalsha(sha, 1, key, algorithm, max, windowMs, now).then(parse),
 *   reset: (key) => (key === undefined ? redis.del(...allKeys) : redis.del(key)),
 * };
 * ```
 */
export interface RateLimitStore {
  hit(key: string, request: RateLimitRequest): RateLimitDecision | Promise<RateLimitDecision>;
  /** Forgets one key, or every key. */
  reset?(key?: string): void | Promise<void>;
}

/** The default in-memory store, plus what tests and dashboards like to see. */
export interface MemoryRateLimitStore extends RateLimitStore {
  hit(key: string, request: RateLimitRequest): RateLimitDecision;
  reset(key?: string): void;
  /** Keys currently held. */
  readonly size: number;
  /** Drops keys that no longer limit anything; runs on its own every so often. */
  sweep(now: number): number;
}

/** Options of {@link memoryRateLimitStore}. */
export interface MemoryRateLimitStoreOptions {
  /** Hits between automatic sweeps of idle keys, at least. Default 1000. */
  sweepEvery?: number;
}

// The newest allowed hits, oldest at `head` once the ring is full. The ring
// holds as many hits as the largest `max` seen for the key, so every hit that
// can still count is in it, and a hit is a binary search: O(log max).
interface WindowEntry {
  readonly kind: "sliding-window";
  times: number[];
  head: number;
  cap: number;
  windowMs: number;
  last: number;
}

interface BucketEntry {
  readonly kind: "token-bucket";
  tokens: number;
  max: number;
  windowMs: number;
  last: number;
}

type Entry = WindowEntry | BucketEntry;

// Refill arithmetic is floating point: 0.1 + 0.2 tokens must still buy a call.
const EPSILON = 1e-9;

/** The i-th oldest hit held by the ring. */
function at(e: WindowEntry, i: number): number {
  const n = e.times.length;
  return e.times[((n < e.cap ? 0 : e.head) + i) % n] as number;
}

/** Rebuilds the ring in time order with room for `cap` hits (a larger limit for the same key). */
function grow(e: WindowEntry, cap: number): void {
  e.times = Array.from({ length: e.times.length }, (_, i) => at(e, i));
  e.head = 0;
  e.cap = cap;
}

/** How many of the ring's hits are still inside the window. */
function inWindow(e: WindowEntry, now: number): number {
  const n = e.times.length;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(e, mid) + e.windowMs <= now) lo = mid + 1;
    else hi = mid;
  }
  return n - lo;
}

function slidingHit(e: WindowEntry, max: number, now: number): RateLimitDecision {
  if (max > e.cap) grow(e, max);
  const count = inWindow(e, now);
  if (count >= max) {
    // The call is allowed once all but max - 1 of the hits in the window have left it.
    return { allowed: false, remaining: 0, retryAfterMs: at(e, e.times.length - max) + e.windowMs - now };
  }
  if (e.times.length < e.cap) {
    e.times.push(now);
  } else {
    e.times[e.head] = now;
    e.head = (e.head + 1) % e.cap;
  }
  return { allowed: true, remaining: max - count - 1, retryAfterMs: 0 };
}

function bucketHit(e: BucketEntry, now: number): RateLimitDecision {
  const rate = e.max / e.windowMs;
  e.tokens = Math.min(e.max, e.tokens + (now - e.last) * rate);
  e.last = now;
  if (e.tokens >= 1 - EPSILON) {
    e.tokens = Math.max(0, e.tokens - 1);
    return { allowed: true, remaining: Math.floor(e.tokens + EPSILON), retryAfterMs: 0 };
  }
  return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, Math.ceil((1 - e.tokens) / rate)) };
}

function idle(e: Entry, now: number): boolean {
  if (e.kind === "token-bucket") return e.tokens + (now - e.last) * (e.max / e.windowMs) >= e.max - EPSILON;
  return e.times.every((t) => t + e.windowMs <= now);
}

/**
 * The default store: exact, synchronous (so concurrent calls cannot race
 * between check and record), per process. Idle keys are swept periodically,
 * so keys made from unbounded values (call ids, users) do not leak.
 *
 * @example
 * ```ts
 * const store = memoryRateLimitStore();
 * hooks.use(rateLimit({ max: 10, per: "1m", store }));
 * hooks.use(rateLimit({ max: 100, per: "1h", store, keyPrefix: "hourly:" }));
 * ```
 */
export function memoryRateLimitStore(options: MemoryRateLimitStoreOptions = {}): MemoryRateLimitStore {
  options = ownOptions(options, "toolware/rate-limit: memoryRateLimitStore()");
  checkOptionsObject(options, "toolware/rate-limit: memoryRateLimitStore() takes an options object { sweepEvery? }");
  checkKeys(options, ["sweepEvery"], "toolware/rate-limit: memoryRateLimitStore()");
  const sweepEvery = options.sweepEvery === undefined ? 1000 : options.sweepEvery;
  if (!Number.isInteger(sweepEvery) || sweepEvery < 1) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/rate-limit: \`sweepEvery\` must be a positive integer, got ${shown(sweepEvery)}`,
    );
  }
  const entries = new Map<string, Entry>();
  let hitsSinceSweep = 0;
  let sweepAt = sweepEvery;

  function sweep(now: number): number {
    let dropped = 0;
    for (const [key, e] of entries) {
      if (idle(e, now)) {
        entries.delete(key);
        dropped++;
      }
    }
    hitsSinceSweep = 0;
    // Sweeping is O(keys): spacing sweeps by the key count keeps hits amortised O(1).
    sweepAt = Math.max(sweepEvery, entries.size);
    return dropped;
  }

  function hit(key: string, { algorithm, max, windowMs, now }: RateLimitRequest): RateLimitDecision {
    if (++hitsSinceSweep >= sweepAt) sweep(now);
    let e = entries.get(key);
    if (e === undefined || e.kind !== algorithm) {
      e =
        algorithm === "token-bucket"
          ? { kind: algorithm, tokens: max, max, windowMs, last: now }
          : { kind: algorithm, times: [], head: 0, cap: max, windowMs, last: now };
      entries.set(key, e);
    }
    // A clock that steps back must not hand out extra calls.
    const t = now < e.last ? e.last : now;
    e.windowMs = windowMs;
    if (e.kind === "token-bucket") {
      if (e.max !== max) {
        e.tokens = Math.min(e.tokens, max);
        e.max = max;
      }
      return bucketHit(e, t);
    }
    e.last = t;
    return slidingHit(e, max, t);
  }

  const store: MemoryRateLimitStore = {
    hit,
    sweep,
    reset(key?: string): void {
      if (key === undefined) entries.clear();
      else entries.delete(key);
    },
    get size(): number {
      return entries.size;
    },
  };
  memoryStores.add(store);
  return store;
}

// Stores made by memoryRateLimitStore, whose decisions are plain { allowed, remaining, retryAfterMs }.
const memoryStores = new WeakSet<object>();

/** True for a store {@link memoryRateLimitStore} made. @internal */
export function isMemoryRateLimitStore(store: RateLimitStore): boolean {
  return memoryStores.has(store);
}
