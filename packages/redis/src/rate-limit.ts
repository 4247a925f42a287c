import type { RateLimitDecision, RateLimitRequest, RateLimitStore } from "@toolware/packs/rate-limit";
import { guarded, guardedScript } from "./deadline.js";
import { connect, deleteMatching, globEscape, type RedisStoreOptions, Script } from "./shared.js";

// One sorted set per key, scored by call time; a refused call is not recorded. Expired calls are
// trimmed first, so the set never holds more than `max` live calls plus those of a larger limit.
const SLIDING = new Script(`
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < max then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window))
  return {1, max - count - 1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], count - max, count - max, 'WITHSCORES')
return {0, 0, math.ceil(tonumber(oldest[2]) + window - now)}
`);

// Tokens and the time of the last refill in a hash; it expires once the bucket would be full again.
const BUCKET = new Script(`
local max = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local rate = max / window
local held = redis.call('HMGET', KEYS[1], 't', 'l')
local tokens = tonumber(held[1])
local last = tonumber(held[2])
if tokens == nil or last == nil then tokens = max last = now end
if now < last then now = last end
tokens = math.min(max, tokens + (now - last) * rate)
local allowed, remaining, retry = 0, 0, 0
if tokens >= 1 - 1e-9 then
  tokens = math.max(0, tokens - 1)
  allowed = 1
  remaining = math.floor(tokens + 1e-9)
else
  retry = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'l', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((max - tokens) / rate) + 1)
return {allowed, remaining, retry}
`);

const toDecision = (reply: unknown): RateLimitDecision => {
  const [allowed, remaining, retryAfterMs] = reply as [number, number, number];
  return { allowed: allowed === 1, remaining, retryAfterMs };
};

const letThrough = (): RateLimitDecision => ({ allowed: true, remaining: 0, retryAfterMs: 0 });

/** Options of {@link redisRateLimitStore}. */
export type RedisRateLimitStoreOptions = RedisStoreOptions;

/** A rate-limit store in Redis, with the bare script exposed for benchmarks. */
export interface RedisRateLimitStore extends RateLimitStore {
  hit(key: string, request: RateLimitRequest): Promise<RateLimitDecision>;
  reset(key?: string): Promise<void>;
}

/**
 * Rate-limit counters in Redis, exact across every process that shares the server: each
 * decision is one Lua script (`EVALSHA`, one round trip) that checks and records atomically.
 * Keys are `<prefix>rl:{<key>}:sw` (a sorted set) and `<prefix>rl:{<key>}:tb` (a hash); each
 * expires once it limits nothing, and each script touches one key, so it runs on a cluster.
 * Calls are timed by the limiter's clock (`Date.now` by default): hosts need synchronised clocks.
 *
 * When Redis does not answer within `timeoutMs`, the default `"fail-closed"` blocks the call
 * (reason: `redis rate-limit store unavailable …`); `"fail-open"` lets it through.
 *
 * @example
 * ```ts
 * const store = redisRateLimitStore({ client: new Redis(process.env.REDIS_URL), prefix: "agents:" });
 * hooks.use(rateLimit({ max: 100, per: "1m", store }));
 * ```
 */
export function redisRateLimitStore(options: RedisRateLimitStoreOptions): RedisRateLimitStore {
  const c = connect(options, "rate-limit", [], "fail-closed");
  const base = `${c.prefix}rl:`;
  let calls = 0;
  return {
    hit(key: string, { algorithm, max, windowMs, now }: RateLimitRequest): Promise<RateLimitDecision> {
      if (algorithm === "token-bucket") {
        return guardedScript(c, "hit", BUCKET, [`${base}{${key}}:tb`], [max, windowMs, now], toDecision, letThrough);
      }
      // The member only has to be unique: this process's token and a counter (the score holds the time).
      const member = `${c.token}:${++calls}`;
      return guardedScript(
        c,
        "hit",
        SLIDING,
        [`${base}{${key}}:sw`],
        [max, windowMs, now, member],
        toDecision,
        letThrough,
      );
    },
    reset(key?: string): Promise<void> {
      return guarded(c, "reset", async () => {
        if (key === undefined) await deleteMatching(c.client, `${globEscape(base)}*`);
        // Separately: with an empty key the two names hash to different cluster slots.
        else await Promise.all([c.client.del(`${base}{${key}}:sw`), c.client.del(`${base}{${key}}:tb`)]);
      });
    },
  };
}
