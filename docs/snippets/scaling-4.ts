// snippet: scaling-4.ts
import { ToolHooks, toolwareCode } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { redisAnalyticsStore } from "@toolware/redis";
import { Redis } from "ioredis";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
redis.on("error", (e) => console.error("redis:", e.message));

// Every worker counts into the same hashes; `stats()` is then a promise of the sum.
const usage = analytics({
  store: redisAnalyticsStore({
    client: redis,
    prefix: "support-agents:",
    ttlMs: 7 * 24 * 3_600_000, // counters live a week after their last call (the default)
    onFallback: (e) => console.warn(`analytics: a call was not counted (${toolwareCode(e.error)})`),
  }),
});
const hooks = new ToolHooks();
hooks.use(usage);

export async function report(): Promise<string> {
  try {
    const { totals, agents } = await usage.stats();
    const p95 = totals.duration?.p95Ms.toFixed(1) ?? "–";
    return `${totals.count} calls (${totals.failures} failed), p95 ≈ ${p95} ms, ${Object.keys(agents).length} agent roles`;
  } catch (error) {
    // Redis is away: no partial figures, a coded error (TOOLWARE_REDIS_UNAVAILABLE).
    return `analytics unavailable: ${toolwareCode(error)}`;
  }
}
