import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { analytics, nearestRank } from "./index.js";

function clockAndTools() {
  let t = 0;
  const now = () => t;
  const inputs: unknown[] = [];
  // Takes `ms` of the injected clock, or throws when asked to.
  const work = defineTool({
    name: "work",
    execute: ({ ms, fail }: { ms: number; fail?: boolean }) => {
      inputs.push(structuredClone({ ms, fail }));
      t += ms;
      if (fail) throw new Error("boom");
      return `took ${ms}`;
    },
  });
  const other = defineTool({ name: "other", execute: () => "other" });
  return { now, work, other, inputs, advance: (ms: number) => (t += ms) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("analytics", () => {
  it("counts per tool and in total, with exact durations", async () => {
    const { now, work, other } = clockAndTools();
    const hooks = new ToolHooks();
    const usage = analytics({ now });
    hooks.use(usage);
    hooks.before((ctx) => ctx.toolName !== "other" || ctx.agent?.role !== "intern");
    await hooks.invoke(work, { ms: 10 });
    await hooks.invoke(work, { ms: 30 });
    await hooks.invoke(work, { ms: 5, fail: true });
    await hooks.invoke(other, {});
    await hooks.invoke(other, {}, { agent: new Agent({ role: "intern" }) });
    const { tools, totals } = usage.stats();
    expect(tools.work).toEqual({
      count: 3,
      ok: 2,
      failures: 1,
      blocked: 0,
      substituted: 0,
      duration: { count: 3, meanMs: 15, minMs: 5, maxMs: 30, totalMs: 45, p50Ms: 10, p95Ms: 30, p99Ms: 30, samples: 3 },
    });
    expect(tools.other).toMatchObject({ count: 2, ok: 1, failures: 0, blocked: 1 });
    expect(tools.other?.duration?.count).toBe(1); // blocked calls are not timed
    expect(totals).toMatchObject({ count: 5, ok: 3, failures: 1, blocked: 1, substituted: 0 });
    expect(totals.duration?.totalMs).toBe(45);
  });

  it("computes exact nearest-rank percentiles", async () => {
    const { now, work } = clockAndTools();
    const hooks = new ToolHooks();
    const usage = analytics({ now });
    hooks.use(usage);
    const durations = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) + 1); // 1..100, shuffled
    for (const ms of durations) await hooks.invoke(work, { ms });
    expect(usage.stats().tools.work?.duration).toEqual({
      count: 100,
      meanMs: 50.5,
      minMs: 1,
      maxMs: 100,
      totalMs: 5050,
      p50Ms: 50,
      p95Ms: 95,
      p99Ms: 99,
      samples: 100,
    });
    expect(nearestRank([7], 99)).toBe(7);
    expect(nearestRank([1, 2, 3, 4], 50)).toBe(2);
  });

  it("computes percentiles over the last sampleSize calls, the mean over all", async () => {
    const { now, work } = clockAndTools();
    const hooks = new ToolHooks();
    const usage = analytics({ now, sampleSize: 10 });
    hooks.use(usage);
    for (let ms = 1; ms <= 100; ms++) await hooks.invoke(work, { ms });
    const d = usage.stats().tools.work?.duration;
    expect(d).toMatchObject({ count: 100, meanMs: 50.5, samples: 10, p50Ms: 95, p95Ms: 100, minMs: 1 });
  });

  it("sees blocks and substituted results of inner hooks, and times them", async () => {
    const { now, work, advance } = clockAndTools();
    const hooks = new ToolHooks();
    const usage = analytics({ now });
    hooks.use(usage);
    hooks.use(async (ctx, next) => {
      const { ms } = ctx.toolInput as { ms: number };
      if (ms === 0) {
        advance(2);
        ctx.respond("from cache");
        return;
      }
      await next();
    });
    hooks.before((ctx) => (ctx.toolInput as { ms: number }).ms !== 99 || ctx.block("too slow"));
    await hooks.invoke(work, { ms: 0 });
    await hooks.invoke(work, { ms: 99 });
    await hooks.invoke(work, { ms: 4 });
    expect(usage.stats().tools.work).toMatchObject({ count: 3, ok: 2, blocked: 1, substituted: 1 });
    expect(usage.stats().tools.work?.duration).toMatchObject({ count: 2, totalMs: 6 });
  });

  it("never writes into toolInput", async () => {
    const { now, work, inputs } = clockAndTools();
    const hooks = new ToolHooks();
    hooks.use(analytics({ now }));
    const input = { ms: 1 };
    const out = await hooks.invoke(work, input);
    expect(input).toEqual({ ms: 1 });
    expect(inputs).toEqual([{ ms: 1, fail: undefined }]);
    expect(out.trace.map((e) => e.action)).not.toContain("modified-input");
  });

  it("keeps concurrent calls apart (per-call state) and counts all of them", async () => {
    vi.useFakeTimers();
    const hooks = new ToolHooks();
    const usage = analytics({ now: () => Date.now() });
    hooks.use(usage);
    const sleep = defineTool({
      name: "sleep",
      execute: ({ ms }: { ms: number }) => new Promise((r) => setTimeout(() => r(ms), ms)),
    });
    const calls = Array.from({ length: 1000 }, (_, i) => hooks.invoke(sleep, { ms: (i % 10) + 1 }));
    await vi.runAllTimersAsync();
    await Promise.all(calls);
    const d = usage.stats().tools.sleep?.duration;
    // Each call waited exactly its own ms; a mixed-up start time would skew these.
    expect(d).toMatchObject({ count: 1000, totalMs: 5500, minMs: 1, maxMs: 10, p50Ms: 5, p99Ms: 10 });
  });

  it("returns a copy, and reset() zeroes", async () => {
    const { now, work } = clockAndTools();
    const hooks = new ToolHooks();
    const usage = analytics({ now });
    hooks.use(usage);
    await hooks.invoke(work, { ms: 3 });
    const snap = usage.stats();
    (snap.tools.work as { count: number }).count = 1000;
    expect(usage.stats().tools.work?.count).toBe(1);
    usage.reset();
    expect(usage.stats()).toEqual({
      tools: {},
      agents: {},
      totals: { count: 0, ok: 0, failures: 0, blocked: 0, substituted: 0, duration: null },
    });
    expect(snap.tools.work?.count).toBe(1000);
  });

  it("fails open: a throwing onCall or clock never breaks the call", async () => {
    const { work } = clockAndTools();
    const hooks = new ToolHooks();
    const errors: string[] = [];
    hooks.on("hook:error", ({ hook, policy }) => errors.push(`${hook.name}:${policy}`));
    let broken = true;
    const usage = analytics({
      now: () => {
        if (broken) throw new Error("clock broke");
        return 0;
      },
      onCall: () => {
        throw new Error("exporter down");
      },
    });
    hooks.use(usage);
    const out = await hooks.invoke(work, { ms: 1 });
    expect(out.status).toBe("ok");
    expect(out.result).toBe("took 1");
    broken = false;
    await hooks.invoke(work, { ms: 1 });
    expect(errors).toEqual(["analytics:start:continue", "analytics:record:continue", "analytics:record:continue"]);
    // Counted before onCall threw; the first call's start time was lost, so it is untimed.
    expect(usage.stats().tools.work).toMatchObject({ count: 2, ok: 2, duration: { count: 1 } });
  });

  it("keeps two instances' start times apart", async () => {
    const { now, work, advance } = clockAndTools();
    const hooks = new ToolHooks();
    const outer = analytics({ now });
    const inner = analytics({ now, priority: -10 });
    hooks.use(outer);
    hooks.use(inner);
    hooks.before(() => {
      advance(100); // time spent between the two
    });
    await hooks.invoke(work, { ms: 1 });
    expect(outer.stats().totals.duration?.totalMs).toBe(101);
    expect(inner.stats().totals.duration?.totalMs).toBe(1);
  });

  it("only counts the tools it is given; blocks outside it are not seen", async () => {
    const { now, work, other } = clockAndTools();
    const hooks = new ToolHooks();
    const usage = analytics({ now, tools: "work" });
    hooks.use(usage);
    hooks.before((ctx) => (ctx.toolInput as { ms?: number }).ms !== 7, { priority: 2000 });
    await hooks.invoke(work, { ms: 1 });
    await hooks.invoke(work, { ms: 7 });
    await hooks.invoke(other, {});
    expect(Object.keys(usage.stats().tools)).toEqual(["work"]);
    expect(usage.stats().totals.count).toBe(1);
  });

  it("is safe with odd tool names", async () => {
    const hooks = new ToolHooks();
    const usage = analytics();
    hooks.use(usage);
    await hooks.invoke(defineTool({ name: "__proto__", execute: () => 1 }), {});
    expect(Object.keys(usage.stats().tools)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(usage.stats().tools)).toBe(Object.prototype);
  });

  it.each([
    [{ sampleSize: 0 }, "`sampleSize` must be a positive integer"],
    [{ now: 5 }, "`now` must be a function"],
    [{ priority: Number.NaN }, "`priority` must be a finite number"],
    [{ onCall: "log" }, "`onCall` must be a function"],
    [{ sample: 3 }, "unknown option `sample`"],
  ])("rejects %j", (options, message) => {
    expect(() => analytics(options as never)).toThrow(TypeError);
    expect(() => analytics(options as never)).toThrow(`toolware/analytics: ${message}`);
  });
});
