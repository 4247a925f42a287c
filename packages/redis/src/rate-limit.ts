import { randomBytes } from "node:crypto";
import type { RateLimitDecision, RateLimitRequest, RateLimitStore } from "@toolware/packs/rate-limit";
import { guarded, guardedCall } from "./deadline.js";
import { cutoff, type Plan, Plans, toDecision } from "./rate-limit-scripts.js";
import { connect, deleteMatching, globEscape, type RedisStoreOptions } from "./shared.js";

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
 * Keys are `<prefix>rl:{<key>}:sw` (a sorted set of calls) and `<prefix>rl:{<key>}:tk` (the
 * bucket's tokens, a string); each expires once it limits nothing, and each script touches one
 * key, so it runs on a cluster. Each limit (max, window) of up to 16 per store gets a script
 * with its numbers written in, so a decision sends only the time (and, for the window, a member).
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
  const plans = new Plans();
  // The limit and the key of the last call: a limiter sends the same ones call after call.
  let plan: Plan | undefined;
  let lastAlgorithm: string | undefined;
  let lastMax = Number.NaN;
  let lastWindow = Number.NaN;
  let lastKey: string | undefined;
  let lastStoreKey = "";
  // A sorted-set member only has to be unique: 64 random bits of this store, then a counter.
  const token = randomBytes(8).toString("base64url");
  let calls = 0;
  return {
    hit(key: string, { algorithm, max, windowMs, now }: RateLimitRequest): Promise<RateLimitDecision> {
      if (plan === undefined || algorithm !== lastAlgorithm || max !== lastMax || windowMs !== lastWindow) {
        plan = plans.get(algorithm !== "token-bucket", max, windowMs);
        lastAlgorithm = algorithm;
        lastMax = max;
        lastWindow = windowMs;
        lastKey = undefined;
      }
      const p = plan;
      if (key !== lastKey) {
        lastKey = key;
        lastStoreKey = `${base}{${key}}${p.sliding ? ":sw" : ":tk"}`;
      }
      let args: (string | number)[];
      if (p.sliding) {
        args = [lastStoreKey, now, cutoff(now, windowMs), `${token}${++calls}`];
      } else args = [lastStoreKey, now];
      if (p.extra.length > 0) args.push(...p.extra);
      return guardedCall(c, "hit", p.script, 1, args, toDecision, letThrough);
    },
    reset(key?: string): Promise<void> {
      return guarded(c, "reset", async () => {
        if (key === undefined) await deleteMatching(c.client, `${globEscape(base)}*`);
        // Separately: with an empty key the two names hash to different cluster slots.
        else await Promise.all([c.client.del(`${base}{${key}}:sw`), c.client.del(`${base}{${key}}:tk`)]);
      });
    },
  };
}
