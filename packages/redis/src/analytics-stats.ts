import { bucketPercentile, LATENCY_BUCKET_COUNT, type ToolStats } from "@toolware/packs/analytics";

/** The integer counters of one hash, or a sum of several. @internal */
export interface RawCounts {
  n: number;
  ok: number;
  err: number;
  blk: number;
  sub: number;
  /** Timed calls, their total, min and max duration in nanoseconds. */
  tn: number;
  ts: number;
  mn: number;
  mx: number;
  buckets: number[];
}

const wholeNumber = (text: string | undefined): number => {
  const n = Number(text ?? 0);
  return Number.isSafeInteger(n) ? n : Number.NaN;
};

/** Reads a pair's hash; `undefined` when it is empty (expired) or not the store's own shape. @internal */
export function parseCounts(fields: Record<string, string>): RawCounts | undefined {
  if (fields === null || typeof fields !== "object" || !Object.hasOwn(fields, "n")) return undefined;
  const buckets = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
  for (let i = 0; i < LATENCY_BUCKET_COUNT; i++) buckets[i] = wholeNumber(fields[`b${i}`]);
  const tn = wholeNumber(fields.tn);
  const counts: RawCounts = {
    n: wholeNumber(fields.n),
    ok: wholeNumber(fields.ok),
    err: wholeNumber(fields.err),
    blk: wholeNumber(fields.blk),
    sub: wholeNumber(fields.sub),
    tn,
    ts: wholeNumber(fields.ts),
    mn: tn > 0 ? wholeNumber(fields.mn) : Number.POSITIVE_INFINITY,
    mx: tn > 0 ? wholeNumber(fields.mx) : Number.NEGATIVE_INFINITY,
    buckets,
  };
  const values = [counts.n, counts.ok, counts.err, counts.blk, counts.sub, tn, counts.ts, ...buckets];
  return values.every(Number.isSafeInteger) && !Number.isNaN(counts.mn) && !Number.isNaN(counts.mx)
    ? counts
    : undefined;
}

/** Adds `b` to `a` (a fresh sum when `a` is missing); min and max combine. @internal */
export function mergeCounts(a: RawCounts | undefined, b: RawCounts): RawCounts {
  if (a === undefined) return { ...b, buckets: [...b.buckets] };
  a.n += b.n;
  a.ok += b.ok;
  a.err += b.err;
  a.blk += b.blk;
  a.sub += b.sub;
  a.tn += b.tn;
  a.ts += b.ts;
  a.mn = Math.min(a.mn, b.mn);
  a.mx = Math.max(a.mx, b.mx);
  for (let i = 0; i < LATENCY_BUCKET_COUNT; i++) a.buckets[i] = (a.buckets[i] as number) + (b.buckets[i] as number);
  return a;
}

/** The pack's view of a sum of counters: percentiles estimated from its buckets. @internal */
export function toStats(r: RawCounts | undefined): ToolStats {
  if (r === undefined) return { count: 0, ok: 0, failures: 0, blocked: 0, substituted: 0, duration: null };
  const minMs = r.mn / 1e6;
  const maxMs = r.mx / 1e6;
  return {
    count: r.n,
    ok: r.ok,
    failures: r.err,
    blocked: r.blk,
    substituted: r.sub,
    duration:
      r.tn === 0
        ? null
        : {
            count: r.tn,
            meanMs: r.ts / r.tn / 1e6,
            minMs,
            maxMs,
            totalMs: r.ts / 1e6,
            p50Ms: bucketPercentile(r.buckets, 50, minMs, maxMs),
            p95Ms: bucketPercentile(r.buckets, 95, minMs, maxMs),
            p99Ms: bucketPercentile(r.buckets, 99, minMs, maxMs),
            samples: r.tn,
            buckets: r.buckets,
          },
  };
}
