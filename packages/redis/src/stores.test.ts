import { defineTool, scriptedHumanInput, ToolHooks, toolwareCode } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { memoryCircuitStore } from "@toolware/packs/circuit-breaker";
import { loopGuard } from "@toolware/packs/loop-guard";
import { memoryRateLimitStore, type RateLimitAlgorithm } from "@toolware/packs/rate-limit";
import fc from "fast-check";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  redisApprovalStore,
  redisCacheStore,
  redisCircuitStore,
  redisLoopGuardStore,
  redisRateLimitStore,
} from "./index.js";
import { type RedisServer, startRedis } from "./test-utils.js";

let server: RedisServer;
let client: Redis;
let run = 0;
const fresh = () => `s${Date.now()}-${++run}:`;

beforeAll(async () => {
  server = await startRedis();
  client = new Redis(server.port, "127.0.0.1");
}, 30_000);
afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

describe("redisRateLimitStore", () => {
  it("decides exactly as the in-memory store, call by call (fast-check)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<RateLimitAlgorithm>("sliding-window", "token-bucket"),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 10, max: 1000 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 25 }),
        async (algorithm, max, windowMs, steps) => {
          const memory = memoryRateLimitStore();
          const redis = redisRateLimitStore({ client, prefix: fresh() });
          let now = 1_000_000;
          for (const step of steps) {
            now += step;
            const request = { algorithm, max, windowMs, now };
            expect(await redis.hit("k", request)).toEqual(memory.hit("k", request));
          }
        },
      ),
      { numRuns: 30 },
    );
  });

  it("puts a TTL on every key and forgets one key or all", async () => {
    const prefix = fresh();
    const store = redisRateLimitStore({ client, prefix });
    const request = { algorithm: "sliding-window" as const, max: 1, windowMs: 60_000, now: Date.now() };
    await store.hit("a", request);
    await store.hit("b", { ...request, algorithm: "token-bucket" });
    const keys = await client.keys(`${prefix}*`);
    expect(keys.sort()).toEqual([`${prefix}rl:{a}:sw`, `${prefix}rl:{b}:tk`]);
    for (const k of keys) expect(await client.pttl(k)).toBeGreaterThan(0);
    expect((await store.hit("a", request)).allowed).toBe(false);
    await store.reset("a");
    expect((await store.hit("a", request)).allowed).toBe(true);
    await store.reset();
    expect(await client.keys(`${prefix}*`)).toEqual([]);
  });

  it("survives a script flush (NOSCRIPT: the script is loaded again)", async () => {
    const store = redisRateLimitStore({ client, prefix: fresh() });
    await client.script("FLUSH");
    const d = await store.hit("x", { algorithm: "sliding-window", max: 2, windowMs: 1000, now: 5 });
    expect(d).toEqual({ allowed: true, remaining: 1, retryAfterMs: 0 });
  });
});

describe("redisCacheStore", () => {
  it("round-trips JSON values; __proto__ stays data and pollutes nothing", async () => {
    const store = redisCacheStore({ client, prefix: fresh() });
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}, "a": [1]}');
    await store.set("tool\u0000{}", { value: hostile, expiresAt: Date.now() + 60_000 });
    const got = await store.get("tool\u0000{}", Date.now());
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    const value = got?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(value.a).toEqual([1]);
    expect(Object.getOwnPropertyDescriptor(value, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("expires entries in Redis; drops by prefix, glob characters included; a foreign value is a miss", async () => {
    const prefix = fresh();
    const store = redisCacheStore({ client, prefix });
    await store.set("a*[b]\u00001", { value: 1, expiresAt: Date.now() + 60_000 });
    await store.set("a*[b]\u00002", { value: 2, expiresAt: Date.now() + 60_000 });
    await store.set("ab\u00001", { value: 3, expiresAt: Date.now() + 60_000 });
    await store.set("gone\u00001", { value: 4, expiresAt: Date.now() - 1 });
    expect(await store.get("gone\u00001", Date.now())).toBeUndefined();
    expect(await client.pttl(`${prefix}c:ab\u00001`)).toBeGreaterThan(50_000);
    expect(await store.deletePrefix("a*[b]\u0000")).toBe(2);
    expect((await store.get("ab\u00001", Date.now()))?.value).toBe(3);
    await client.set(`${prefix}c:odd`, '{"x":1}');
    expect(await store.get("odd", Date.now())).toBeUndefined();
    expect(await store.delete("ab\u00001")).toBe(true);
    await store.clear();
    expect(await client.keys(`${prefix}*`)).toEqual([]);
  });

  it("refuses a value JSON cannot carry, with a code", async () => {
    const store = redisCacheStore({ client, prefix: fresh() });
    const error = await store.set("k", { value: { n: 1n }, expiresAt: Date.now() + 1000 }).catch((e: unknown) => e);
    expect(toolwareCode(error)).toBe("TOOLWARE_UNSERIALIZABLE_VALUE");
  });
});

describe("redisCircuitStore", () => {
  it("moves through the same states as the in-memory store", async () => {
    const policy = { failureThreshold: 2, cooldownMs: 1000, halfOpenMax: 1 };
    const redis = redisCircuitStore({ client, prefix: fresh() });
    const memory = memoryCircuitStore();
    const both = async <T>(f: (s: typeof memory | typeof redis) => T | Promise<T>) => {
      const [m, r] = [await f(memory), await f(redis)];
      return { m, r };
    };
    for (const outcome of ["failure", "failure"] as const) {
      const { m, r } = await both((s) => s.record("k", outcome, undefined, 10, policy));
      expect(r).toEqual(m);
    }
    const open = await both((s) => s.admit("k", 500, policy));
    expect(open.r).toEqual(open.m);
    expect(open.r).toEqual({ allowed: false, state: "open", retryInMs: 510 });
    const trial = await both((s) => s.admit("k", 1010, policy));
    expect(trial.r).toMatchObject({ allowed: true, change: { from: "open", to: "half-open" } });
    const second = await both((s) => s.admit("k", 1011, policy));
    expect(second.r).toEqual(second.m);
    expect((await both((s) => s.snapshot("k", 1011, policy))).r).toEqual({
      state: "half-open",
      failures: 2,
      trials: 1,
    });
    const trialOf = (a: unknown) => (a as { trial: string }).trial;
    const closed = await Promise.all([
      memory.record("k", "success", trialOf(trial.m), 1012, policy),
      redis.record("k", "success", trialOf(trial.r), 1012, policy),
    ]);
    expect(closed[1]).toEqual(closed[0]);
    expect(closed[1]).toEqual({ from: "half-open", to: "closed" });
    await redis.record("j", "failure", undefined, 1, { ...policy, failureThreshold: 1 });
    expect(await redis.reset()).toEqual([["j", "open"]]);
  });
});

describe("redisApprovalStore", () => {
  it("an 'always' given through one connection holds for a gate on another; TTL; reset", async () => {
    const prefix = fresh();
    const other = new Redis(server.port, "127.0.0.1");
    try {
      const tool = defineTool({ name: "send_email", execute: () => "sent" });
      const first = new ToolHooks({ humanInput: scriptedHumanInput(["always"]) });
      first.use(approval({ remember: "tool", store: redisApprovalStore({ client, prefix, ttlMs: 60_000 }) }));
      const second = new ToolHooks({ humanInput: scriptedHumanInput([]) });
      const gate = approval({ remember: "tool", store: redisApprovalStore({ client: other, prefix }) });
      second.use(gate);
      expect((await first.invoke(tool, {})).status).toBe("ok");
      const out = await second.invoke(tool, {});
      expect(out.status).toBe("ok");
      expect(await gate.rememberedCount()).toBe(1);
      expect(await client.pttl(`${prefix}ap:send_email`)).toBeGreaterThan(50_000);
      await gate.reset();
      expect(await gate.rememberedCount()).toBe(0);
      expect((await second.invoke(tool, {})).status).toBe("blocked");
    } finally {
      other.disconnect();
    }
  });
});

describe("redisLoopGuardStore", () => {
  it("blocks and warns exactly as the in-memory store, call by call, across connections", async () => {
    const prefix = fresh();
    const other = new Redis(server.port, "127.0.0.1");
    try {
      let t = 1_000;
      const make = (store?: ReturnType<typeof redisLoopGuardStore>) => {
        const hooks = new ToolHooks();
        const guard = loopGuard({
          maxRepeats: 3,
          maxInWindow: 4,
          windowMs: 1000,
          action: "block",
          scope: "global",
          now: () => t,
          onWarn: () => {},
          ...(store === undefined ? {} : { store }),
        });
        hooks.use(guard);
        return { hooks, guard };
      };
      const memory = make();
      const a = make(redisLoopGuardStore({ client, prefix }));
      const b = make(redisLoopGuardStore({ client: other, prefix }));
      const search = defineTool({ name: "search", execute: () => "r" });
      const fetch = defineTool({ name: "fetch", execute: () => "f" });
      const plan = [search, search, fetch, search, search, search, search, fetch, search, fetch, search, search];
      for (const [i, tool] of plan.entries()) {
        t += 150;
        const expected = await memory.hooks.invoke(tool, {});
        // Alternate processes: the Redis guards count the calls of both as one.
        const got = await (i % 2 === 0 ? a : b).hooks.invoke(tool, {});
        expect(`${i} ${got.status} ${got.reason ?? ""}`).toBe(`${i} ${expected.status} ${expected.reason ?? ""}`);
      }
      const history = await a.guard.history();
      expect(history.map((e) => e.toolName)).toEqual((await memory.guard.history()).map((e) => e.toolName));
      await b.guard.reset();
      expect(await a.guard.history()).toEqual([]);
    } finally {
      other.disconnect();
    }
  });
});

describe("options", () => {
  it("refuse mistakes with codes", () => {
    const cases: [() => unknown, string, RegExp][] = [
      [() => redisRateLimitStore({} as never), "TOOLWARE_INVALID_OPTION", /`client` must be an ioredis client/],
      [() => redisRateLimitStore(null as never), "TOOLWARE_INVALID_OPTION", /takes an options object/],
      [() => redisCacheStore({ client, prefix: "a{b}" }), "TOOLWARE_INVALID_OPTION", /without braces/],
      [() => redisCacheStore({ client, timeoutMs: 0 }), "TOOLWARE_INVALID_OPTION", /`timeoutMs`/],
      [() => redisCacheStore({ client, failure: "open" as never }), "TOOLWARE_INVALID_OPTION", /`failure` must be/],
      [() => redisCircuitStore({ client, ttl: 5 } as never), "TOOLWARE_UNKNOWN_OPTION", /unknown option `ttl`/],
      [() => redisCircuitStore({ client, ttlMs: -1 }), "TOOLWARE_INVALID_OPTION", /`ttlMs`/],
      [() => redisCircuitStore({ client, onFallback: 1 as never }), "TOOLWARE_INVALID_OPTION", /`onFallback`/],
      [() => redisApprovalStore({ client, ttlMs: 1.5 }), "TOOLWARE_INVALID_OPTION", /`ttlMs`/],
    ];
    for (const [make, code, message] of cases) {
      let error: unknown;
      try {
        make();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe(code);
      expect(String(error)).toMatch(message);
    }
  });
});
