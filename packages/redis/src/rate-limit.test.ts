import { toolwareCode } from "@toolware/core";
import {
  memoryRateLimitStore,
  type RateLimitAlgorithm,
  type RateLimitDecision,
  type RateLimitRequest,
} from "@toolware/packs/rate-limit";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisFallbackEvent, redisRateLimitStore } from "./index.js";
import { type RedisServer, startRedis } from "./test-utils.js";

// The edges of the rate-limit scripts: each decision is checked against the in-memory store's.

let server: RedisServer;
let client: Redis;
let run = 0;
const fresh = () => `rl${Date.now()}-${++run}:`;

beforeAll(async () => {
  server = await startRedis();
  client = new Redis(server.port, "127.0.0.1");
}, 30_000);
afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

// The sliding window's retry is whole milliseconds in Redis (at least 1), exact in memory.
const expected = (algorithm: RateLimitAlgorithm, d: RateLimitDecision): RateLimitDecision =>
  algorithm === "sliding-window" && !d.allowed ? { ...d, retryAfterMs: Math.max(1, Math.ceil(d.retryAfterMs)) } : d;

async function sameAsMemory(algorithm: RateLimitAlgorithm, requests: readonly Omit<RateLimitRequest, "algorithm">[]) {
  const memory = memoryRateLimitStore();
  const redis = redisRateLimitStore({ client, prefix: fresh() });
  const got: RateLimitDecision[] = [];
  for (const r of requests) {
    const request = { algorithm, ...r };
    const d = await redis.hit("k", request);
    expect(d).toEqual(expected(algorithm, memory.hit("k", request)));
    got.push(d);
  }
  return got;
}

describe("redisRateLimitStore, edge cases", () => {
  it("lets a call go exactly `windowMs` after it was made, not a millisecond sooner", async () => {
    const at = (now: number) => ({ max: 2, windowMs: 1000, now });
    const got = await sameAsMemory("sliding-window", [at(0), at(10), at(999), at(1000), at(1009), at(1010)]);
    expect(got.map((d) => [d.allowed, d.remaining, d.retryAfterMs])).toEqual([
      [true, 1, 0],
      [true, 0, 0],
      [false, 0, 1],
      [true, 0, 0],
      [false, 0, 1],
      [true, 0, 0],
    ]);
    // With fractions, `t + windowMs <= now` (memory's test) can hold while `t <= now - windowMs`
    // does not, in the last bit: a clock near zero (performance.now) meets this.
    const t = 97.88155421820952;
    const windowMs = 1119.1098534405367;
    expect(t > t + windowMs - windowMs).toBe(true);
    const edge = await sameAsMemory("sliding-window", [
      { max: 1, windowMs, now: t },
      { max: 1, windowMs, now: t + windowMs },
    ]);
    expect(edge.map((d) => d.allowed)).toEqual([true, true]);
  });

  it("refills a bucket by fractions of a token as memory does, rounding included", async () => {
    // 3 per 1000 ms: a token every 333.33… ms, which no double holds exactly.
    const at = (now: number) => ({ max: 3, windowMs: 1000, now });
    const got = await sameAsMemory("token-bucket", [at(0), at(0), at(0), at(0), at(333), at(334), at(666), at(667)]);
    expect(got.map((d) => d.allowed)).toEqual([true, true, true, false, false, true, false, true]);
    expect(got[3]?.retryAfterMs).toBe(334);
  });

  it("decides as memory does with fractional clocks and windows (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<RateLimitAlgorithm>("sliding-window", "token-bucket"),
        fc.integer({ min: 1, max: 4 }),
        // Keys expire by the server's clock, which runs while this fake one jumps: windows of 200 ms or
        // more outlast the real time between two calls.
        fc.double({ min: 200, max: 2000, noNaN: true }),
        fc.array(fc.double({ min: 0, max: 700, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom(0, 1_733_000_000_000),
        fc.double({ min: 0, max: 100, noNaN: true }),
        async (algorithm, max, windowMs, steps, epoch, start) => {
          let now = epoch + start;
          const requests = steps.map((step) => {
            now += step;
            return { max, windowMs, now };
          });
          await sameAsMemory(algorithm, requests);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("a clock that steps back hands out no extra call", async () => {
    const at = (now: number) => ({ max: 2, windowMs: 1000, now });
    // The bucket holds its last refill time, as memory does.
    await sameAsMemory("token-bucket", [at(5000), at(5000), at(4000), at(4500), at(5400), at(5500)]);
    // The window counts calls stamped later than the clock says it is: still refused.
    const store = redisRateLimitStore({ client, prefix: fresh() });
    const request = { algorithm: "sliding-window" as const, ...at(5000) };
    await store.hit("k", request);
    await store.hit("k", request);
    const back = await store.hit("k", { ...request, now: 4200 });
    expect(back).toEqual({ allowed: false, remaining: 0, retryAfterMs: 1800 });
  });

  it("takes huge limits and windows: remaining counts come back exactly", async () => {
    for (const max of [2 ** 53 - 1, 2 ** 60, 1e300]) {
      for (const algorithm of ["sliding-window", "token-bucket"] as const) {
        await sameAsMemory(algorithm, [
          { max, windowMs: 1000, now: 1 },
          { max, windowMs: 1000, now: 2 },
        ]);
      }
    }
    const prefix = fresh();
    const store = redisRateLimitStore({ client, prefix });
    const forever = { algorithm: "sliding-window" as const, max: 1, windowMs: 1e300, now: 1 };
    expect(await store.hit("k", forever)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    expect((await store.hit("k", { ...forever, now: 1e12 })).allowed).toBe(false);
    expect(await client.pttl(`${prefix}rl:{k}:sw`)).toBeGreaterThan(1e14);
  });

  it("keeps each key one window (whole ms) past its last change, then drops it", async () => {
    const prefix = fresh();
    const store = redisRateLimitStore({ client, prefix });
    for (const algorithm of ["sliding-window", "token-bucket"] as const) {
      const request = { algorithm, max: 1, windowMs: 30_000.5, now: Date.now() };
      await store.hit("k", request);
      expect((await store.hit("k", request)).allowed).toBe(false);
    }
    const window = await client.pttl(`${prefix}rl:{k}:sw`);
    const bucket = await client.pttl(`${prefix}rl:{k}:tk`);
    expect(window).toBeGreaterThan(29_000);
    expect(window).toBeLessThanOrEqual(30_001);
    expect(bucket).toBeGreaterThan(29_000);
    expect(bucket).toBeLessThanOrEqual(30_002);
    // A short window is gone from Redis soon after its last call: nothing grows without bound.
    await store.hit("short", { algorithm: "token-bucket", max: 5, windowMs: 20, now: Date.now() });
    await new Promise((r) => setTimeout(r, 80));
    expect(await client.exists(`${prefix}rl:{short}:tk`)).toBe(0);
  });

  it("keeps deciding as memory does beyond the limits it writes into scripts", async () => {
    const memory = memoryRateLimitStore();
    const redis = redisRateLimitStore({ client, prefix: fresh() });
    for (let round = 0; round < 2; round++) {
      for (let max = 1; max <= 24; max++) {
        for (const algorithm of ["sliding-window", "token-bucket"] as const) {
          const request = { algorithm, max, windowMs: 1000 + max, now: 10_000 + round * 7 };
          expect(await redis.hit(`${algorithm}${max}`, request)).toEqual(memory.hit(`${algorithm}${max}`, request));
        }
      }
    }
  });

  it("fails by its policy on a value it did not write", async () => {
    const prefix = fresh();
    await client.set(`${prefix}rl:{k}:tk`, "not a bucket");
    const request = { algorithm: "token-bucket" as const, max: 1, windowMs: 1000, now: 1 };
    const closed = await redisRateLimitStore({ client, prefix })
      .hit("k", request)
      .catch((e: unknown) => e);
    expect(toolwareCode(closed)).toBe("TOOLWARE_REDIS_UNAVAILABLE");
    const events: RedisFallbackEvent[] = [];
    const open = redisRateLimitStore({ client, prefix, failure: "fail-open", onFallback: (e) => events.push(e) });
    expect(await open.hit("k", request)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    expect(events.map((e) => [e.store, e.operation, e.action])).toEqual([["rate-limit", "hit", "allowed"]]);
  });
});
