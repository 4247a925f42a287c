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
// beyond 2^53 (a limit that large) comes back as a string, exactly (`%.17g`), since Redis's
// integer reply would cut it.

const FIT = (n: string) =>
  `if ${n} > -9007199254740992 and ${n} < 9007199254740992 then return ${n} end
return string.format('%.17g', ${n})`;

// ARGV: now, cutoff (now - window, computed by the caller so the trim is exact), member (unique).
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
