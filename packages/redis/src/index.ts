export { type RedisAnalyticsStore, type RedisAnalyticsStoreOptions, redisAnalyticsStore } from "./analytics.js";
export { type RedisApprovalStore, type RedisApprovalStoreOptions, redisApprovalStore } from "./approval.js";
export { type RedisCacheStore, type RedisCacheStoreOptions, redisCacheStore } from "./cache.js";
export { type RedisCircuitStore, type RedisCircuitStoreOptions, redisCircuitStore } from "./circuit-breaker.js";
export { type RedisLoopGuardStore, type RedisLoopGuardStoreOptions, redisLoopGuardStore } from "./loop-guard.js";
export { type RedisRateLimitStore, type RedisRateLimitStoreOptions, redisRateLimitStore } from "./rate-limit.js";
export type {
  FailurePolicy,
  RedisClient,
  RedisFallbackEvent,
  RedisStoreKind,
  RedisStoreOptions,
} from "./shared.js";
