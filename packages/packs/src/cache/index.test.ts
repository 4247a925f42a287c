import { getEventListeners } from "node:events";
import { defineTool, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type CacheStore, cache, memoryCacheStore } from "./index.js";
import { setup } from "./test-fixtures.js";

describe("cache: hits and misses", () => {
  it("serves the second identical call without running the tool, whatever the key order", async () => {
    const { clock, syncSearch, runs } = setup();
    const hooks = new ToolHooks();
    const c = cache({ tools: "sync_search", now: clock.now });
    hooks.use(c);
    const first = await hooks.invoke(syncSearch, { query: "toolware", limit: 5 } as never);
    const second = await hooks.invoke(syncSearch, { limit: 5, query: "toolware" } as never);
    expect(runs).toEqual(["toolware"]);
    expect(second.status).toBe("ok");
    expect(second.result).toBe(first.result);
    expect(second.raw).toBe(first.raw);
    expect(second.trace.map((e) => `${e.hook}:${e.action}`)).toEqual(["cache:substituted"]);
    expect(c.stats()).toEqual({ hits: 1, misses: 1, dedupes: 0, bypassed: 0, stored: 1, storeErrors: 0, inFlight: 0 });
  });

  it("expires entries after the TTL (injectable clock)", async () => {
    const { clock, syncSearch, runs } = setup();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "sync_search", ttl: "10s", now: clock.now }));
    await hooks.invoke(syncSearch, { query: "a" });
    clock.advance(9_999);
    await hooks.invoke(syncSearch, { query: "a" });
    expect(runs).toEqual(["a"]);
    clock.advance(1);
    await hooks.invoke(syncSearch, { query: "a" });
    expect(runs).toEqual(["a", "a"]);
  });

  it("only caches the tools it is given; '*' caches all; no tools is an error", async () => {
    const { syncSearch, other, runs } = setup();
    const hooks = new ToolHooks();
    const off = hooks.use(cache({ tools: ["sync_search"] }));
    await hooks.invoke(other, {});
    await hooks.invoke(other, {});
    expect(runs).toEqual(["other", "other"]);
    off();
    hooks.use(cache({ tools: "*" }));
    await hooks.invoke(other, {});
    await hooks.invoke(other, {});
    await hooks.invoke(syncSearch, { query: "q" });
    await hooks.invoke(syncSearch, { query: "q" });
    expect(runs).toEqual(["other", "other", "other", "q"]);
    expect(() => cache({} as never)).toThrow(
      'toolware/cache: `tools` is required: name the tools whose results may be reused, or pass "*"',
    );
    expect(() => cache({ tools: [] })).toThrow(TypeError);
  });

  it("keys on the input as it is when the cache runs: outer hooks normalise first", async () => {
    const { syncSearch, runs } = setup();
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      const input = ctx.toolInput as { query: string };
      input.query = input.query.trim().toLowerCase();
    });
    hooks.use(cache({ tools: "sync_search" }));
    // Inside the cache (lower priority): runs only on misses, and its change is not part of the key.
    hooks.before(
      (ctx) => {
        (ctx.toolInput as { query: string }).query += "!";
      },
      { priority: -200 },
    );
    await hooks.invoke(syncSearch, { query: "  TOOLware " });
    const second = await hooks.invoke(syncSearch, { query: "toolware" });
    expect(runs).toEqual(["toolware!"]);
    expect(second.result).toBe("results for toolware!");
  });

  it("lets outer guards and after-hooks act on hits; uses keyInput to ignore volatile fields", async () => {
    const { syncSearch, runs } = setup();
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.agent === undefined || ctx.block("agents may not search"));
    hooks.after((ctx) => ctx.toolResult?.toUpperCase());
    hooks.use(cache({ tools: "sync_search", keyInput: ({ query }) => ({ query }) }));
    await hooks.invoke(syncSearch, { query: "a", requestId: 1 } as never);
    const hit = await hooks.invoke(syncSearch, { query: "a", requestId: 2 } as never);
    expect(hit.result).toBe("RESULTS FOR A");
    expect(runs).toEqual(["a"]);
  });

  it("formats hits like tool results and keeps the raw value", async () => {
    const tool = defineTool({
      name: "lookup",
      execute: ({ id }: { id: number }) => ({ id, name: `item ${id}` }),
      formatResult: (raw) => `#${raw.id}: ${raw.name}`,
    });
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: tool }));
    await hooks.invoke(tool, { id: 7 });
    const hit = await hooks.invoke(tool, { id: 7 });
    expect(hit.result).toBe("#7: item 7");
    expect(hit.raw).toEqual({ id: 7, name: "item 7" });
  });
});

describe("cache: in-flight dedupe", () => {
  it("runs the tool once for 1,000 concurrent identical calls", async () => {
    const { search, runs, openGates } = setup();
    const hooks = new ToolHooks();
    const c = cache({ tools: "web_search" });
    hooks.use(c);
    const calls = Array.from({ length: 1000 }, (_, i) =>
      hooks.invoke(search, i % 2 ? { query: "same", limit: 3 } : { limit: 3, query: "same" }),
    );
    await openGates();
    const outs = await Promise.all(calls);
    expect(runs).toEqual(["same"]);
    expect(new Set(outs.map((o) => o.status))).toEqual(new Set(["ok"]));
    expect(new Set(outs.map((o) => o.result))).toEqual(new Set(['{"hits":["same-1","same-2"],"limit":3}']));
    expect(c.stats()).toMatchObject({ misses: 1, dedupes: 999, hits: 0, inFlight: 0, stored: 1 });
  });

  it("runs once per distinct input", async () => {
    const { search, runs, openGates } = setup();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "web_search" }));
    const calls = Array.from({ length: 300 }, (_, i) => hooks.invoke(search, { query: `q${i % 3}` }));
    await openGates();
    await Promise.all(calls);
    expect([...runs].sort()).toEqual(["q0", "q1", "q2"]);
  });

  it("dedupes with an async store too, by claiming the key before the store answers", async () => {
    const { search, runs, openGates } = setup();
    const inner = memoryCacheStore();
    let gets = 0;
    const slow: CacheStore = {
      get: async (key, now) => {
        gets++;
        await new Promise((r) => setImmediate(r));
        return inner.get(key, now);
      },
      set: async (key, entry) => inner.set(key, entry),
      delete: async (key) => inner.delete(key),
      deletePrefix: async (prefix) => inner.deletePrefix(prefix),
      clear: async () => inner.clear(),
    };
    const hooks = new ToolHooks();
    const c = cache({ tools: "web_search", store: slow });
    hooks.use(c);
    const calls = Array.from({ length: 1000 }, () => hooks.invoke(search, { query: "x" }));
    await openGates();
    await Promise.all(calls);
    expect(runs).toEqual(["x"]);
    expect(gets).toBe(1);
    expect(c.stats()).toMatchObject({ misses: 1, dedupes: 999 });
    await hooks.invoke(search, { query: "x" });
    expect(c.stats().hits).toBe(1);
  });

  it("does not cache errors; followers of a failed leader run on their own", async () => {
    const { search, runs, openGates, failNextRuns } = setup();
    const hooks = new ToolHooks();
    const c = cache({ tools: "web_search" });
    hooks.use(c);
    failNextRuns(1);
    const calls = Array.from({ length: 10 }, () => hooks.invoke(search, { query: "flaky" }));
    await openGates();
    const outs = await Promise.all(calls);
    expect(outs.map((o) => o.status).sort()).toEqual([...Array(9).fill("ok"), "error"].sort());
    expect(runs).toHaveLength(10);
    expect(c.stats()).toMatchObject({ misses: 10, dedupes: 0 });
    const later = hooks.invoke(search, { query: "flaky" });
    await openGates();
    expect((await later).status).toBe("ok");
    expect(runs).toHaveLength(10); // a follower's success was stored
  });

  it("does not cache blocked calls", async () => {
    const { syncSearch, runs } = setup();
    const hooks = new ToolHooks();
    let allow = false;
    hooks.use(cache({ tools: "sync_search" }));
    hooks.before(() => allow, { priority: -200 });
    expect((await hooks.invoke(syncSearch, { query: "a" })).status).toBe("blocked");
    allow = true;
    expect((await hooks.invoke(syncSearch, { query: "a" })).status).toBe("ok");
    expect((await hooks.invoke(syncSearch, { query: "a" })).status).toBe("ok");
    expect(runs).toEqual(["a"]);
  });

  it("lets a cancelled follower go without waiting, and removes its abort listener", async () => {
    const { search, runs, openGates } = setup();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "web_search" }));
    const leader = hooks.invoke(search, { query: "slow" });
    const stay = new AbortController();
    const leave = new AbortController();
    const staying = hooks.invoke(search, { query: "slow" }, { signal: stay.signal });
    const leaving = hooks.invoke(search, { query: "slow" }, { signal: leave.signal });
    await new Promise((r) => setImmediate(r));
    leave.abort();
    const left = await leaving;
    expect(left.status).toBe("blocked");
    expect(left.reason).toBe("cancelled while waiting for an identical call in flight");
    await openGates();
    expect((await leader).status).toBe("ok");
    expect((await staying).status).toBe("ok");
    expect(runs).toEqual(["slow"]);
    expect(getEventListeners(stay.signal, "abort")).toHaveLength(0);
  });

  it("runs every call when dedupe is off", async () => {
    const { search, runs, openGates } = setup();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "web_search", dedupe: false }));
    const calls = Array.from({ length: 5 }, () => hooks.invoke(search, { query: "x" }));
    await openGates();
    await Promise.all(calls);
    expect(runs).toHaveLength(5);
  });
});
