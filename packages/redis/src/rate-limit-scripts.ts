import { ToolwareError } from "@toolware/core";
import type { RateLimitDecision } from "@toolware/packs/rate-limit";
import { Script } from "./shared.js";

// The rate-limit scripts, written for the server's cost per decision, which is most of what a
// decision costs beyond a bare round trip. Measured on Redis 7 (`INFO commandstats`), per call:
// every ARGV entry ~0.3 µs on the server and ~1 µs in the client; every Lua number handed to
// `redis.call` ~0.4 µs (Lua formats it with sprintf); a table reply ~0.9 µs more than an integer.
// So the scripts pass ARGV strings straight to Redis, reply with one integer, and a store writes
// the numbers of a limiter (max, window) into the script itself, sending only what changes per call.
//
// Reply: n >= 0 allowed, with n calls remaining; n < 0 refused, retry after -n ms. A magnitude
// of 2^50 or more (a limit that large) comes back as a string, exactly (`%.17g`): Redis cuts an
// integer reply at 2^63, and ioredis reads integers near 2^53 one off.

const FIT = (n: string) =>
  `if ${n} > -1125899906842624 and ${n} < 1125899906842624 then return ${n} end
return string.format('%.17g', ${n})`;

// ARGV: now, the cutoff (see `cutoff`: computed by the caller, so the trim is exact), a unique member.
// One sorted set per key, scored by call time; a refused call is not recorded. Expired calls are
// trimmed first, so the set never holds more than `max` live calls plus those of a larger limit.
const slidingSource = (max: string, window: string, ttl: string) => `local max = ${max}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
local n
if count < max then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ${ttl})
  n = max - count - 1
else
  local oldest = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
  n = -math.max(1, math.ceil(tonumber(oldest[2]) + ${window} - tonumber(ARGV[1])))
end
${FIT("n")}
`;

// ARGV: now. Tokens and the time of the last refill, packed as two doubles (exact, no formatting)
// in a string that expires one window after its last call, when the bucket is full again anyway.
const bucketSource = (max: string, window: string, ttl: string) => `local max = ${max}
local rate = max / ${window}
local now = tonumber(ARGV[1])
local tokens, last = max, now
local held = redis.call('GET', KEYS[1])
if held then tokens, last = struct.unpack('<dd', held) end
if now < last then now = last end
tokens = math.min(max, tokens + (now - last) * rate)
local n
if tokens >= 1 - 1e-9 then
  tokens = math.max(0, tokens - 1)
  n = math.floor(tokens + 1e-9)
else
  n = -math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('SET', KEYS[1], struct.pack('<dd', tokens, now), 'PX', ${ttl})
${FIT("n")}
`;

// For any limit: max, window and TTL come after the per-call arguments.
const SLIDING_ANY = new Script(slidingSource("tonumber(ARGV[4])", "tonumber(ARGV[5])", "ARGV[6]"));
const BUCKET_ANY = new Script(bucketSource("tonumber(ARGV[2])", "tonumber(ARGV[3])", "ARGV[4]"));

/** How one (algorithm, max, window) is decided: its script, and what follows the per-call arguments. @internal */
export interface Plan {
  readonly sliding: boolean;
  readonly script: Script;
  /** Empty when the limit is written into the script. */
  readonly extra: readonly (string | number)[];
}

// Far beyond any real window (31,700 years), within what PEXPIRE accepts.
const MAX_TTL = 1e15;
// Each distinct limit gets its own script on the server, which keeps scripts until restarted or
// flushed: a store with more limits than this sends the rest with the script for any limit.
const MAX_PLANS = 16;

/** Plans by limit, at most {@link MAX_PLANS} written-in ones per store. @internal */
export class Plans {
  readonly #written = new Map<string, Plan>();

  get(sliding: boolean, max: number, windowMs: number): Plan {
    const ttl = String(Math.min(Math.ceil(windowMs) + (sliding ? 0 : 1), MAX_TTL));
    // A limit written into Lua source must read back as the same double: finite numbers do.
    if (!Number.isFinite(max) || !Number.isFinite(windowMs) || !(windowMs > 0))
      return this.#any(sliding, max, windowMs, ttl);
    const id = `${sliding ? "s" : "b"}${max}/${windowMs}`;
    let plan = this.#written.get(id);
    if (plan === undefined) {
      if (this.#written.size >= MAX_PLANS) return this.#any(sliding, max, windowMs, ttl);
      const source = (sliding ? slidingSource : bucketSource)(String(max), String(windowMs), `'${ttl}'`);
      plan = { sliding, script: new Script(source), extra: [] };
      this.#written.set(id, plan);
    }
    return plan;
  }

  #any(sliding: boolean, max: number, windowMs: number, ttl: string): Plan {
    return { sliding, script: sliding ? SLIDING_ANY : BUCKET_ANY, extra: [max, windowMs, ttl] };
  }
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
// Which half of the double holds the low bits of the significand.
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

/** The next double above `x` (finite `x`). */
function up(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  f64[0] = x;
  // Adding one to the bits moves away from zero; subtracting, towards it.
  const step = x > 0 ? 1 : -1;
  const low = (u32[LOW] as number) + step;
  u32[LOW] = low >>> 0;
  if (low > 0xffffffff || low < 0) u32[1 - LOW] = ((u32[1 - LOW] as number) + step) >>> 0;
  return f64[0] as number;
}

/**
 * The latest call time that a window of `windowMs` has left at `now`: the largest `t` with
 * `t + windowMs <= now` in floating point, the in-memory store's test. `now - windowMs` is it
 * for whole milliseconds; with fractions the two can differ in the last bit, and the trim must
 * agree with the in-memory store to the bit.
 * @internal
 */
export function cutoff(now: number, windowMs: number): number {
  const t = now - windowMs;
  if (!Number.isFinite(t) || (t + windowMs <= now && up(t) + windowMs > now)) return t;
  // Bisect between a time that has left (lo) and one that has not (hi): at most ~64 halvings for
  // times of the clock's magnitude (more only for times near zero on a clock far from it).
  let span = (Math.abs(now) + Math.abs(windowMs)) * 2 ** -50 + Number.MIN_VALUE;
  let lo = t - span;
  while (!(lo + windowMs <= now)) lo -= span *= 2;
  let hi = t + span;
  while (hi + windowMs <= now) hi += span *= 2;
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid === lo || mid === hi) return lo;
    if (mid + windowMs <= now) lo = mid;
    else hi = mid;
  }
}

/** Reads a script's reply into a decision; anything else is an error, so the failure policy applies. @internal */
export function toDecision(reply: unknown): RateLimitDecision {
  const n = typeof reply === "number" ? reply : typeof reply === "string" ? Number(reply) : Number.NaN;
  if (n >= 0) return { allowed: true, remaining: n, retryAfterMs: 0 };
  if (n < 0) return { allowed: false, remaining: 0, retryAfterMs: -n };
  throw new ToolwareError(
    "TOOLWARE_REDIS_UNAVAILABLE",
    `unexpected reply from the rate-limit script: ${String(reply)}`,
  );
}
