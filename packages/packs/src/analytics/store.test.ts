import { Agent, defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AnalyticsCallRecord,
  type AnalyticsSnapshot,
  type AnalyticsStore,
  analytics,
  bucketPercentile,
  LATENCY_BUCKET_COUNT,
  LATENCY_BUCKETS_MS,
  latencyBucket,
  memoryAnalyticsStore,
  nearestRank,
} from "./index.js";

const empty = { count: 0, ok: 0, failures: 0, blocked: 0, substituted: 0, duration: null };

describe("analytics per agent", () => {
  it("counts per agent role; calls without an agent count in tools and totals only", async () => {
    let t = 0;
    const hooks = new ToolHooks();
    const usage = analytics({ now: () => t });
    hooks.use(usage);
    hooks.before((ctx) => ctx.agent?.role !== "intern" || ctx.toolName !== "deploy");
    const tool = (name: string, ms: number) =>
      defineTool({
        name,
        execute: () => {
          t += ms;
          return name;
        },
      });
    const search = tool("search", 10);
    const deploy = tool("deploy", 50);
    const [writer, intern] = [new Agent({ role: "writer" }), new Agent({ role: "intern" })];
    await hooks.invoke(search, {}, { agent: writer });
    await hooks.invoke(deploy, {}, { agent: writer });
    await hooks.invoke(search, {}, { agent: intern });
    await hooks.invoke(deploy, {}, { agent: intern });
    await hooks.invoke(search, {});
    const { agents, tools, totals } = usage.stats();
    expect(Object.keys(agents).sort()).toEqual(["intern", "writer"]);
    expect(agents.writer).toMatchObject({ count: 2, ok: 2, duration: { count: 2, totalMs: 60, minMs: 10, maxMs: 50 } });
    expect(agents.intern).toMatchObject({ count: 2, ok: 1, blocked: 1, duration: { count: 1, totalMs: 10 } });
    expect(tools.search?.count).toBe(3);
    expect(totals).toMatchObject({ count: 5, ok: 4, blocked: 1 });
  });
});

describe("analytics store option", () => {
  it("counts into the store given; stats() and reset() answer with what the store answers", async () => {
    const store = memoryAnalyticsStore({ sampleSize: 2 });
    const hooks = new ToolHooks();
    let t = 0;
    const usage = analytics({ store, now: () => t });
    hooks.use(usage);
    const work = defineTool({ name: "work", execute: ({ ms }: { ms: number }) => (t += ms) });
    for (const ms of [1, 2, 3]) await hooks.invoke(work, { ms });
    expect(store.snapshot()).toEqual(usage.stats());
    // sampleSize 2: the percentiles see the last two durations only.
    expect(usage.stats().tools.work?.duration).toMatchObject({ count: 3, samples: 2, p50Ms: 2, minMs: 1 });
    usage.reset();
    expect(store.snapshot()).toEqual({ tools: {}, agents: {}, totals: empty });
  });

  it("never waits for an asynchronous store; a rejected record is reported, the call unchanged", async () => {
    const seen: AnalyticsCallRecord[] = [];
    const reported: string[] = [];
    let fail = false;
    const snapshot: AnalyticsSnapshot = { tools: {}, agents: {}, totals: empty };
    const store = {
      record(call: AnalyticsCallRecord): Promise<void> {
        seen.push(call);
        // Never settles, or rejects: either way the call must end at once.
        return fail ? Promise.reject(new Error("store down")) : new Promise<void>(() => {});
      },
      snapshot: async () => snapshot,
      reset: async () => {},
    } satisfies AnalyticsStore;
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push(`${where}: ${String(error)}`) });
    const usage = analytics({ store });
    hooks.use(usage);
    const tool = defineTool({ name: "t", execute: () => "done" });
    expect(await hooks.invoke(tool, {})).toMatchObject({ status: "ok", result: "done" });
    fail = true;
    expect(await hooks.invoke(tool, {}, { agent: new Agent({ role: "r" }) })).toMatchObject({ status: "ok" });
    await new Promise((r) => setTimeout(r, 0));
    expect(reported).toEqual(["analytics.store: Error: store down"]);
    expect(seen.map((c) => [c.toolName, c.agentRole, c.status, c.substituted, typeof c.durationMs])).toEqual([
      ["t", undefined, "ok", false, "number"],
      ["t", "r", "ok", false, "number"],
    ]);
    const stats: Promise<AnalyticsSnapshot> = usage.stats();
    expect(await stats).toBe(snapshot);
    await expect(usage.reset()).resolves.toBeUndefined();
  });

  it("a store whose record throws fails open like any observer failure", async () => {
    const errors: string[] = [];
    const hooks = new ToolHooks();
    hooks.on("hook:error", ({ hook, policy }) => errors.push(`${hook.name}:${policy}`));
    const store = memoryAnalyticsStore();
    hooks.use(
      analytics({
        store: {
          ...store,
          record: () => {
            throw new Error("full");
          },
        },
      }),
    );
    const out = await hooks.invoke(defineTool({ name: "t", execute: () => 1 }), {});
    expect(out).toMatchObject({ status: "ok", raw: 1 });
    expect(errors).toEqual(["analytics:record:continue"]);
  });

  it.each([
    [{ store: {} }, "`store` must implement record, snapshot, reset"],
    [{ store: null }, "`store` must implement record, snapshot, reset"],
    [{ store: { record: () => {}, snapshot: () => ({}) } }, "`store` must implement record, snapshot, reset"],
    [{ store: memoryAnalyticsStore(), sampleSize: 5 }, "`sampleSize` is for the default store"],
  ])("rejects %j with a coded TypeError", (options, message) => {
    expect(() => analytics(options as never)).toThrow(TypeError);
    expect(() => analytics(options as never)).toThrow(`toolware/analytics: ${message}`);
    try {
      analytics(options as never);
    } catch (error) {
      expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
    }
  });

  it.each([
    [{ sampleSize: 0 }, "TOOLWARE_INVALID_OPTION", "`sampleSize` must be a positive integer"],
    [{ sampleSize: 1.5 }, "TOOLWARE_INVALID_OPTION", "`sampleSize` must be a positive integer"],
    [{ samples: 10 }, "TOOLWARE_UNKNOWN_OPTION", "unknown option `samples`"],
    [null, "TOOLWARE_INVALID_OPTION", "memoryAnalyticsStore() takes an options object"],
  ])("memoryAnalyticsStore rejects %j", (options, code, message) => {
    expect(() => memoryAnalyticsStore(options as never)).toThrow(`toolware/analytics: ${message}`);
    try {
      memoryAnalyticsStore(options as never);
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe(code);
    }
  });
});

describe("latency buckets", () => {
  it("has fixed, increasing bounds, four per doubling from 1 µs", () => {
    expect(LATENCY_BUCKETS_MS).toHaveLength(LATENCY_BUCKET_COUNT - 1);
    expect(LATENCY_BUCKETS_MS[0]).toBe(0.001);
    expect(LATENCY_BUCKETS_MS[4]).toBe(0.002);
    expect(LATENCY_BUCKETS_MS[40]).toBe(1.024);
    expect(LATENCY_BUCKETS_MS[128]).toBe(0.001 * 2 ** 32);
    for (let i = 1; i < LATENCY_BUCKETS_MS.length; i++) {
      const ratio = (LATENCY_BUCKETS_MS[i] as number) / (LATENCY_BUCKETS_MS[i - 1] as number);
      expect(ratio).toBeCloseTo(2 ** 0.25, 12);
    }
    expect(Object.isFrozen(LATENCY_BUCKETS_MS)).toBe(true);
  });

  it("puts every duration in the bucket whose bounds hold it (fast-check)", () => {
    const bounds = LATENCY_BUCKETS_MS;
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: 0, max: 5e6, noNaN: true }), fc.constantFrom(...bounds)), (ms) => {
        const b = latencyBucket(ms);
        expect(b).toBeGreaterThanOrEqual(0);
        expect(b).toBeLessThan(LATENCY_BUCKET_COUNT);
        if (b > 0) expect(ms).toBeGreaterThanOrEqual(bounds[b - 1] as number);
        if (b < LATENCY_BUCKET_COUNT - 1) expect(ms).toBeLessThan(bounds[b] as number);
      }),
    );
    for (const odd of [-1, Number.NaN, Number.NEGATIVE_INFINITY]) expect(latencyBucket(odd)).toBe(0);
    expect(latencyBucket(Number.POSITIVE_INFINITY)).toBe(LATENCY_BUCKET_COUNT - 1);
  });

  it("estimates nearest-rank percentiles within 9.1 % from buckets that merge by adding (fast-check)", () => {
    const histogram = (values: readonly number[]) => {
      const counts = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
      for (const v of values) counts[latencyBucket(v)] = (counts[latencyBucket(v)] ?? 0) + 1;
      return counts;
    };
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.001, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 200 }),
        fc.array(fc.double({ min: 0.001, max: 1e6, noNaN: true }), { maxLength: 200 }),
        fc.constantFrom(1, 50, 95, 99, 100),
        (a, b, p) => {
          const all = [...a, ...b];
          const merged = histogram(a).map((n, i) => n + (histogram(b)[i] as number));
          expect(merged).toEqual(histogram(all));
          const sorted = [...all].sort((x, y) => x - y);
          const exact = nearestRank(sorted, p);
          const estimate = bucketPercentile(merged, p, sorted[0] as number, sorted.at(-1) as number);
          expect(Math.abs(estimate - exact) / exact).toBeLessThanOrEqual(2 ** (1 / 8) - 1 + 1e-12);
        },
      ),
    );
    expect(bucketPercentile(new Array(LATENCY_BUCKET_COUNT).fill(0), 50, 0, 0)).toBeNaN();
  });
});
