// snippet: scaling-1.ts
import { ToolHooks } from "@toolware/core";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redisCacheStore, redisCircuitStore, redisRateLimitStore } from "@toolware/redis";
import { Redis } from "ioredis";

// The application's own connection: the stores never close it and add no listeners to it.
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
redis.on("error", (e) => console.error("redis:", e.message)); // ioredis reconnects by itself

const shared = { client: redis, prefix: "support-agents:", timeoutMs: 200 };
const hooks = new ToolHooks();
hooks.use(rateLimit({ max: 100, per: "1m", key: "tool", store: redisRateLimitStore(shared) }));
hooks.use(circuitBreaker({ failureThreshold: 5, cooldownMs: 30_000, store: redisCircuitStore(shared) }));
hooks.use(cache({ tools: ["web_search"], ttl: "10m", scope: "crew", store: redisCacheStore(shared) }));
