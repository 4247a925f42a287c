// Fixed, log-spaced latency buckets shared by every process: two histograms with the same bounds
// merge exactly by adding counts, whatever order the calls came in. Four buckets per doubling
// from 1 µs to 2^32 µs (about 71.6 minutes): bucket 0 holds [0, 0.001) ms (and anything not a
// number ≥ 0), bucket i in 1…128 holds [0.001·2^((i-1)/4), 0.001·2^(i/4)) ms, bucket 129 the rest.

// 2^(k/4) for k = 0…3, written out so every process, on any Node version, has the same bounds.
const QUARTER_POWERS = [1, 1.189207115002721, Math.SQRT2, 1.6817928305074292];

/** How many latency buckets there are (the last one is open-ended). */
export const LATENCY_BUCKET_COUNT = 130;

/**
 * The upper bound (exclusive), in milliseconds, of latency buckets 0…128; bucket 129 has none.
 * Neighbouring bounds differ by a factor of 2^(1/4) ≈ 1.189.
 */
export const LATENCY_BUCKETS_MS: readonly number[] = Object.freeze(
  Array.from(
    { length: LATENCY_BUCKET_COUNT - 1 },
    (_, i) => 0.001 * 2 ** Math.floor(i / 4) * (QUARTER_POWERS[i % 4] as number),
  ),
);

const LAST = LATENCY_BUCKET_COUNT - 1;

/**
 * The bucket a duration in milliseconds falls in: 0 for less than 1 µs (and for a negative or
 * `NaN` duration), 129 from 2^32 µs on.
 *
 * @example
 * ```ts
 * latencyBucket(0.0005); // 0
 * latencyBucket(1); // 40: [0.001·2^(39/4), 0.001·2^10) = [0.861, 1.024) ms
 * ```
 */
export function latencyBucket(ms: number): number {
  const bounds = LATENCY_BUCKETS_MS;
  if (!(ms >= (bounds[0] as number))) return 0;
  if (ms >= (bounds[LAST - 1] as number)) return LAST;
  let i = Math.min(LAST - 1, Math.max(1, Math.floor(Math.log2(ms / 0.001) * 4) + 1));
  // The logarithm can land one off next to a bound: the bounds themselves decide.
  while (i > 1 && ms < (bounds[i - 1] as number)) i--;
  while (i < LAST - 1 && ms >= (bounds[i] as number)) i++;
  return i;
}

/**
 * The nearest-rank percentile `p` estimated from bucket counts: the geometric middle of the
 * bucket holding that rank, clamped to the exact `minMs` and `maxMs`. The true nearest-rank
 * value lies in that bucket, so from 1 µs up to the last bound the estimate is within a factor of
 * 2^(1/8) of it (at most 9.1 % off); below 1 µs it is off by less than 1 µs, and in the last
 * bucket it is `maxMs`.
 *
 * @example
 * ```ts
 * const buckets = new Array(130).fill(0);
 * buckets[latencyBucket(10)] = 99;
 * buckets[latencyBucket(500)] = 1;
 * bucketPercentile(buckets, 50, 10, 500); // 10 (the bucket's middle, clamped to the minimum)
 * bucketPercentile(buckets, 99.5, 10, 500); // 500
 * ```
 */
export function bucketPercentile(buckets: ArrayLike<number>, p: number, minMs: number, maxMs: number): number {
  let total = 0;
  for (let i = 0; i < buckets.length; i++) total += buckets[i] as number;
  if (total === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  let bucket = 0;
  for (; bucket < buckets.length; bucket++) {
    seen += buckets[bucket] as number;
    if (seen >= rank) break;
  }
  const bounds = LATENCY_BUCKETS_MS;
  let estimate: number;
  if (bucket === 0) estimate = (bounds[0] as number) / 2;
  else if (bucket >= LAST) estimate = maxMs;
  else estimate = Math.sqrt((bounds[bucket - 1] as number) * (bounds[bucket] as number));
  return Math.min(maxMs, Math.max(minMs, estimate));
}
