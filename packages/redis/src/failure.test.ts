import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { rateLimit } from "@toolware/packs/rate-limit";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type FailurePolicy,
  type RedisFallbackEvent,
  redisAnalyticsStore,
  redisCacheStore,
  redisCircuitStore,
  redisRateLimitStore,
} from "./index.js";
import { freePort, type RedisServer, startRedis } from "./test-utils.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
});
afterEach(() => {
  expect(unhandled).toEqual([]);
});

const clients: Redis[] = [];
afterAll(() => {
  for (const c of clients) c.disconnect();
});
function clientFor(port: number): Redis {
  const client = new Redis(port, "127.0.0.1", { lazyConnect: false });
  client.on("error", () => {});
  clients.push(client);
  return client;
}

// One of each guard and a cache, all on the same client and policy.
function stack(client: Redis, failure: FailurePolicy, events: RedisFallbackEvent[]) {
  const common = { client, failure, timeoutMs: 150, onFallback: (e: RedisFallbackEvent) => events.push(e) };
  const hooks = new ToolHooks();
  // Analytics always fails open: it takes no `failure`.
  hooks.use(analytics({ store: redisAnalyticsStore({ ...common, failure: undefined }) }));
  hooks.use(rateLimit({ max: 1000, per: "1m", store: redisRateLimitStore(common) }));
  hooks.use(circuitBreaker({ store: redisCircuitStore(common) }));
  hooks.use(cache({ tools: "*", store: redisCacheStore(common), dedupe: false }));
  let runs = 0;
  const tool = defineTool({ name: "work", execute: (input: { n: number }) => ({ n: input.n, run: ++runs }) });
  return { hooks, tool, runs: () => runs };
}

describe("failure policies against a dead port", () => {
  it("fail-closed blocks with a reason naming the store; every call ends; events say so", async () => {
    const events: RedisFallbackEvent[] = [];
    const { hooks, tool, runs } = stack(clientFor(await freePort()), "fail-closed", events);
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, n) => hooks.invoke(tool, { n })));
    for (const o of outcomes) {
      expect(o.status).toBe("blocked");
      expect(o.reason).toMatch(/redis rate-limit store unavailable \(hit: .*\), failing closed/);
    }
    expect(runs()).toBe(0);
    expect(events.filter((e) => e.store === "rate-limit").map((e) => `${e.operation} ${e.action}`)).toEqual(
      Array(5).fill("hit refused"),
    );
  });

  it("fail-open lets calls through and skips the cache; events say so", async () => {
    const events: RedisFallbackEvent[] = [];
    const { hooks, tool, runs } = stack(clientFor(await freePort()), "fail-open", events);
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, n) => hooks.invoke(tool, { n: n % 2 })));
    expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill("ok"));
    expect(runs()).toBe(5);
    // The calls ended without waiting for analytics: its records give up at their own deadline.
    await new Promise((r) => setTimeout(r, 200));
    const seen = new Set(events.map((e) => `${e.store} ${e.operation} ${e.action}`));
    expect(seen).toEqual(
      new Set([
        "rate-limit hit allowed",
        "circuit-breaker admit allowed",
        "circuit-breaker record allowed",
        "cache get allowed",
        "cache set allowed",
        "analytics record allowed",
      ]),
    );
  });

  it("a circuit breaker failing closed blocks with its own reason", async () => {
    const hooks = new ToolHooks();
    hooks.use(circuitBreaker({ store: redisCircuitStore({ client: clientFor(await freePort()), timeoutMs: 100 }) }));
    const out = await hooks.invoke(defineTool({ name: "x", execute: () => 1 }), {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(
      /^circuit state for x unavailable, call blocked: .*redis circuit-breaker store unavailable/,
    );
  });
});

describe("a server that stops answering", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("gives up on each call at its own deadline, then answers again", async () => {
    const client = clientFor(server.port);
    const events: RedisFallbackEvent[] = [];
    const store = redisRateLimitStore({ client, timeoutMs: 80, onFallback: (e) => events.push(e) });
    const request = () => ({ algorithm: "sliding-window" as const, max: 100, windowMs: 60_000, now: Date.now() });
    await store.hit("k", request());
    // Another connection pauses every client: calls started 0, 30 and 60 ms apart each wait 80 ms.
    const admin = clientFor(server.port);
    await admin.client("PAUSE", 400);
    const t0 = performance.now();
    const ended: number[] = [];
    const calls: Promise<unknown>[] = [];
    for (const delay of [0, 30, 60]) {
      await new Promise((r) => setTimeout(r, delay === 0 ? 0 : 30));
      const started = performance.now();
      calls.push(
        store.hit("k", request()).then(
          () => ended.push(-1),
          (error: unknown) => {
            expect(toolwareCode(error)).toBe("TOOLWARE_REDIS_UNAVAILABLE");
            ended.push(performance.now() - started);
          },
        ),
      );
    }
    await Promise.all(calls);
    expect(performance.now() - t0).toBeLessThan(390);
    expect(ended).toHaveLength(3);
    for (const waited of ended) {
      expect(waited).toBeGreaterThanOrEqual(79);
      expect(waited).toBeLessThan(200);
    }
    expect(events.map((e) => e.action)).toEqual(["refused", "refused", "refused"]);
    await new Promise((r) => setTimeout(r, 450 - (performance.now() - t0)));
    expect(await store.hit("k", request())).toMatchObject({ allowed: true });
  });
});

describe("Redis killed in the middle of a run", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it.each(["fail-closed", "fail-open"] as const)(
    "%s: each call ends with an outcome, and it recovers",
    async (failure) => {
      const events: RedisFallbackEvent[] = [];
      const { hooks, tool } = stack(clientFor(server.port), failure, events);
      const before = await Promise.all(Array.from({ length: 10 }, (_, n) => hooks.invoke(tool, { n })));
      expect(before.map((o) => o.status)).toEqual(Array(10).fill("ok"));
      // Calls in flight when the server dies, and calls made while it is down.
      const inFlight = Array.from({ length: 10 }, (_, n) => hooks.invoke(tool, { n: 100 + n }));
      await server.kill();
      const during = await Promise.all([
        ...inFlight,
        ...Array.from({ length: 10 }, (_, n) => hooks.invoke(tool, { n: 200 + n })),
      ]);
      for (const o of during) expect(["ok", "blocked"]).toContain(o.status);
      const down = during.slice(10);
      if (failure === "fail-closed") {
        for (const o of down) expect(o.reason).toMatch(/redis rate-limit store unavailable/);
      } else {
        expect(down.map((o) => o.status)).toEqual(Array(10).fill("ok"));
      }
      expect(events.length).toBeGreaterThan(0);
      // The client reconnects by itself; the scripts are loaded again (NOSCRIPT, then EVAL).
      await server.restart();
      let after = await hooks.invoke(tool, { n: 300 });
      for (let i = 0; i < 100 && (after.status !== "ok" || events.length === 0); i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = await hooks.invoke(tool, { n: 300 });
      }
      expect(after.status).toBe("ok");
      // Analytics records of calls made while it was down may still be reaching their deadline.
      await new Promise((r) => setTimeout(r, 200));
      const settled = events.length;
      const again = await hooks.invoke(tool, { n: 300 });
      expect(again).toMatchObject({ status: "ok", raw: after.raw });
      expect(events.length).toBe(settled);
    },
    30_000,
  );
});
