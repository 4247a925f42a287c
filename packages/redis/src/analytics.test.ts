import { type CallStatus, defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import {
  type AnalyticsCallRecord,
  analytics,
  LATENCY_BUCKET_COUNT,
  latencyBucket,
  memoryAnalyticsStore,
  type ToolStats,
} from "@toolware/packs/analytics";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisFallbackEvent, redisAnalyticsStore } from "./index.js";
import { freePort, type RedisServer, startRedis } from "./test-utils.js";

let server: RedisServer;
let client: Redis;
let run = 0;
const fresh = () => `a${Date.now()}-${++run}:`;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  server = await startRedis();
  client = new Redis(server.port, "127.0.0.1");
}, 30_000);
afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  client?.disconnect();
  await server?.stop();
  expect(unhandled).toEqual([]);
});

// Counts must be equal; durations agree to the nanosecond Redis keeps, percentiles within the bucket
// bound (9.1 %, or under 1 µs for a value below 1 µs).
function expectSameStats(redis: ToolStats | undefined, memory: ToolStats | undefined): void {
  expect(redis).toBeDefined();
  const { duration: rd, ...rc } = redis as ToolStats;
  const { duration: md, ...mc } = memory as ToolStats;
  expect(rc).toEqual(mc);
  if (md === null) {
    expect(rd).toBeNull();
    return;
  }
  expect(rd?.count).toBe(md.count);
  expect(rd?.samples).toBe(md.count);
  for (const k of ["minMs", "maxMs"] as const)
    expect(Math.abs((rd?.[k] as number) - md[k]), k).toBeLessThanOrEqual(1e-6);
  expect(Math.abs((rd?.totalMs as number) - md.totalMs)).toBeLessThanOrEqual(1e-6 * md.count);
  for (const k of ["p50Ms", "p95Ms", "p99Ms"] as const) {
    const bound = Math.max(md[k] * (2 ** (1 / 8) - 1), 0.001) + 1e-6;
    expect(Math.abs((rd?.[k] as number) - md[k]), k).toBeLessThanOrEqual(bound);
  }
  expect(rd?.buckets?.reduce((a, b) => a + b, 0)).toBe(md.count);
}

const call = fc.record({
  toolName: fc.constantFrom("search", "fetch", "__proto__", "a:{b}*", 'q"uote'),
  agentRole: fc.constantFrom(undefined, "writer", "constructor", "r{1}"),
  status: fc.constantFrom<CallStatus>("ok", "error", "blocked"),
  substituted: fc.boolean(),
  durationMs: fc.option(fc.double({ min: 0, max: 60_000, noNaN: true }), { nil: undefined }),
});

describe("redisAnalyticsStore", () => {
  it("counts exactly what the in-memory store counts, per tool, per agent and in total (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 40 }), async (calls) => {
        const memory = memoryAnalyticsStore();
        const redis = redisAnalyticsStore({ client, prefix: fresh() });
        await Promise.all(
          calls.map((c, i) => {
            // Blocked calls are never timed by the pack, and only ok calls are substituted.
            const record: AnalyticsCallRecord = {
              ...c,
              callId: String(i),
              substituted: c.status === "ok" && c.substituted,
              durationMs: c.status === "blocked" ? undefined : c.durationMs,
            };
            memory.record(record);
            return redis.record(record);
          }),
        );
        const [m, r] = [memory.snapshot(), await redis.snapshot()];
        expect(Object.keys(r.tools).sort()).toEqual(Object.keys(m.tools).sort());
        expect(Object.keys(r.agents).sort()).toEqual(Object.keys(m.agents).sort());
        for (const tool of Object.keys(m.tools)) expectSameStats(r.tools[tool], m.tools[tool]);
        for (const agent of Object.keys(m.agents)) expectSameStats(r.agents[agent], m.agents[agent]);
        expectSameStats(r.totals, m.totals);
        expect(Object.getPrototypeOf(r.tools)).toBe(Object.prototype);
        expect(({} as Record<string, unknown>).count).toBeUndefined();
      }),
      { numRuns: 25 },
    );
  });

  it("serves the pack: stats() is a promise; keys are prefixed, hash-tagged and expire; reset() clears", async () => {
    const prefix = fresh();
    let t = 0;
    const usage = analytics({ store: redisAnalyticsStore({ client, prefix, ttlMs: 60_000 }), now: () => t });
    const hooks = new ToolHooks();
    hooks.use(usage);
    const work = defineTool({ name: "work", execute: ({ ms }: { ms: number }) => (t += ms) });
    for (const ms of [1, 2, 3, 400]) await hooks.invoke(work, { ms });
    const stats = await usage.stats();
    expect(stats.tools.work).toMatchObject({ count: 4, ok: 4, failures: 0, blocked: 0, substituted: 0 });
    expect(stats.totals.duration).toMatchObject({ count: 4, totalMs: 406, minMs: 1, maxMs: 400, meanMs: 101.5 });
    const buckets = new Array(LATENCY_BUCKET_COUNT).fill(0);
    for (const ms of [1, 2, 3, 400]) buckets[latencyBucket(ms)]++;
    expect(stats.totals.duration?.buckets).toEqual(buckets);
    // p99 sits in the top bucket: clamped to the exact maximum.
    expect(stats.totals.duration?.p99Ms).toBe(400);
    const keys = (await client.keys(`${prefix}*`)).sort();
    expect(keys).toEqual([`${prefix}an:{default}:c:["work",null]`, `${prefix}an:{default}:i`]);
    for (const k of keys) {
      const ttl = await client.pttl(k);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    await usage.reset();
    expect(await client.keys(`${prefix}*`)).toEqual([]);
    expect((await usage.stats()).totals).toEqual({
      count: 0,
      ok: 0,
      failures: 0,
      blocked: 0,
      substituted: 0,
      duration: null,
    });
  });

  it("keeps stores with different names apart, and ignores foreign data under its keys", async () => {
    const prefix = fresh();
    const one = redisAnalyticsStore({ client, prefix, name: "one" });
    const two = redisAnalyticsStore({ client, prefix, name: "two" });
    const record = { toolName: "t", agentRole: undefined, callId: "1", status: "ok" as const, substituted: false };
    await one.record({ ...record, durationMs: 5 });
    expect((await two.snapshot()).totals.count).toBe(0);
    await client.sadd(`${prefix}an:{one}:i`, "not json", '["x", 1]', '["gone", null]');
    await client.hset(`${prefix}an:{one}:c:not json`, "n", "1");
    await client.hset(`${prefix}an:{one}:c:["x", 1]`, "n", "1");
    const s = await one.snapshot();
    expect(Object.keys(s.tools)).toEqual(["t"]);
    expect(s.totals.count).toBe(1);
    await client.hset(`${prefix}an:{one}:c:["t",null]`, "ok", "many");
    expect((await one.snapshot()).totals.count).toBe(0);
  });

  it("never fails or slows a call when Redis is away; reading says it is unavailable", async () => {
    const dead = new Redis(await freePort(), "127.0.0.1");
    dead.on("error", () => {});
    try {
      const events: RedisFallbackEvent[] = [];
      const store = redisAnalyticsStore({ client: dead, timeoutMs: 300, onFallback: (e) => events.push(e) });
      const hooks = new ToolHooks();
      const usage = analytics({ store });
      hooks.use(usage);
      const started = performance.now();
      const outs = await Promise.all(
        Array.from({ length: 5 }, () => hooks.invoke(defineTool({ name: "t", execute: () => 1 }), {})),
      );
      // The calls did not wait for Redis' deadline.
      expect(performance.now() - started).toBeLessThan(250);
      expect(outs.map((o) => o.status)).toEqual(Array(5).fill("ok"));
      const error = await usage.stats().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(toolwareCode(error)).toBe("TOOLWARE_REDIS_UNAVAILABLE");
      expect(String(error)).toMatch(/redis analytics store unavailable \(snapshot: /);
      await expect(
        store.record({ toolName: "t", agentRole: "r", callId: "x", status: "ok", substituted: false, durationMs: 1 }),
      ).resolves.toBeUndefined();
      const records = events.filter((e) => e.operation === "record");
      expect(records).toHaveLength(6);
      for (const e of records) expect(e).toMatchObject({ store: "analytics", policy: "fail-open", action: "allowed" });
      expect(events.find((e) => e.operation === "snapshot")).toMatchObject({ action: "refused" });
    } finally {
      dead.disconnect();
    }
  });

  it.each([
    [{ failure: "fail-closed" }, "TOOLWARE_INVALID_OPTION", /always fails open when counting/],
    [{ ttlMs: 0 }, "TOOLWARE_INVALID_OPTION", /`ttlMs` must be a positive whole number/],
    [{ name: "a{b}" }, "TOOLWARE_INVALID_OPTION", /`name` must be a non-empty string without braces/],
    [{ name: "" }, "TOOLWARE_INVALID_OPTION", /`name` must be/],
    [{ names: "x" }, "TOOLWARE_UNKNOWN_OPTION", /unknown option `names`/],
  ])("refuses %j with a code", (extra, code, message) => {
    let error: unknown;
    try {
      redisAnalyticsStore({ client, ...extra } as never);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TypeError);
    expect(toolwareCode(error)).toBe(code);
    expect(String(error)).toMatch(message);
  });
});
