// snippet: scaling-3.ts
import { toolwareCode } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";
import { type RedisFallbackEvent, redisCacheStore, redisRateLimitStore } from "@toolware/redis";
import { Cluster } from "ioredis";

// A cluster: every script touches one key, so it runs on whichever master owns that key's slot.
const cluster = new Cluster([
  { host: "redis-1.internal", port: 6379 },
  { host: "redis-2.internal", port: 6379 },
]);

const onFallback = (e: RedisFallbackEvent) =>
  console.warn(
    `redis ${e.store}.${e.operation} ${e.action} (${e.policy}): ${toolwareCode(e.error) ?? String(e.error)}`,
  );

// A paid API: refuse calls rather than overspend while Redis is away.
export const paid = rateLimit({
  max: 20,
  per: "1m",
  store: redisRateLimitStore({ client: cluster, failure: "fail-closed", timeoutMs: 250, onFallback }),
});
// A courtesy limit on a cheap internal tool: better to let calls through.
export const courtesy = rateLimit({
  max: 1000,
  per: "1m",
  keyPrefix: "internal:",
  store: redisRateLimitStore({ client: cluster, failure: "fail-open", onFallback }),
});
export const results = redisCacheStore({ client: cluster, onFallback }); // a cache always fails open
