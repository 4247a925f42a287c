import { defineTool, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type CacheEntry, type CacheStore, cache, memoryCacheStore } from "./index.js";
import { setup } from "./test-fixtures.js";

describe("cache: management and failures", () => {
  it("invalidates one input, one tool, or everything", async () => {
    const { syncSearch, other, runs } = setup();
    const hooks = new ToolHooks();
    const c = cache({ tools: "*" });
    hooks.use(c);
    const warm = async () => {
      await hooks.invoke(syncSearch, { query: "a" });
      await hooks.invoke(syncSearch, { query: "b" });
      await hooks.invoke(other, {});
    };
    await warm();
    expect(runs).toEqual(["a", "b", "other"]);
    expect(await c.invalidate("sync_search", { query: "a" })).toBe(1);
    await warm();
    expect(runs).toEqual(["a", "b", "other", "a"]);
    expect(await c.invalidate(syncSearch)).toBe(2);
    await warm();
    expect(runs).toEqual(["a", "b", "other", "a", "a", "b"]);
    await c.clear();
    await warm();
    expect(runs).toEqual(["a", "b", "other", "a", "a", "b", "a", "b", "other"]);
  });

  it("does not store a result that was in flight when invalidated", async () => {
    const { search, runs, openGates } = setup();
    const hooks = new ToolHooks();
    const c = cache({ tools: "web_search" });
    hooks.use(c);
    const before = hooks.invoke(search, { query: "doc" });
    await new Promise((r) => setImmediate(r));
    await c.invalidate("web_search");
    const after = hooks.invoke(search, { query: "doc" }); // must not follow the stale run
    await openGates();
    await Promise.all([before, after]);
    expect(runs).toEqual(["doc", "doc"]);
    expect(c.stats().stored).toBe(1);
  });

  it("fails open when the store breaks", async () => {
    const { syncSearch, runs } = setup();
    const errors: string[] = [];
    const broken: CacheStore = {
      get: () => {
        throw new Error("get down");
      },
      set: () => Promise.reject(new Error("set down")),
      delete: () => false,
      deletePrefix: () => 0,
      clear: () => {},
    };
    const hooks = new ToolHooks();
    const c = cache({
      tools: "sync_search",
      store: broken,
      onStoreError: (e, op) => errors.push(`${op}: ${String(e)}`),
    });
    hooks.use(c);
    expect((await hooks.invoke(syncSearch, { query: "a" })).status).toBe("ok");
    const rejecting: CacheStore = { ...broken, get: () => Promise.reject(new Error("get rejected")) };
    const hooks2 = new ToolHooks();
    hooks2.use(cache({ tools: "sync_search", store: rejecting }));
    expect((await hooks2.invoke(syncSearch, { query: "b" })).status).toBe("ok");
    await new Promise((r) => setImmediate(r));
    expect(runs).toEqual(["a", "b"]);
    expect(errors).toEqual(["get: Error: get down", "set: Error: set down"]);
    expect(c.stats().storeErrors).toBe(2);
  });

  it("never strands followers: a throwing error reporter, a throwing formatter on an async hit", async () => {
    const { search, runs, openGates } = setup();
    const reported: string[] = [];
    // The reporter's own failure goes where listener errors go, not to console.error.
    const hooks = new ToolHooks({ onListenerError: (where, e) => reported.push(`${where}: ${String(e)}`) });
    const throwingSet: CacheStore = {
      ...memoryCacheStore(),
      get: () => undefined,
      set: () => {
        throw new Error("set down");
      },
    };
    hooks.use(
      cache({
        tools: "web_search",
        store: throwingSet,
        onStoreError: () => {
          throw new Error("reporter down too");
        },
      }),
    );
    const calls = Array.from({ length: 3 }, () => hooks.invoke(search, { query: "q" }));
    await openGates();
    expect((await Promise.all(calls)).map((o) => o.status)).toEqual(["ok", "ok", "ok"]);
    expect(runs).toEqual(["q"]);
    expect(reported).toEqual(["cache.onStoreError: Error: reporter down too"]);

    let formats = 0;
    const picky = defineTool({
      name: "picky",
      execute: () => ({ v: "fresh" }),
      formatResult: (raw: { v: string }) => {
        if (raw.v === "cached" && formats++ === 0) throw new Error("cannot format");
        return raw.v;
      },
    });
    const asyncStore: CacheStore = {
      get: async () => ({ value: { v: "cached" }, expiresAt: Number.POSITIVE_INFINITY }),
      set: async () => {},
      delete: async () => false,
      deletePrefix: async () => 0,
      clear: async () => {},
    };
    const hooks2 = new ToolHooks();
    hooks2.use(cache({ tools: "picky", store: asyncStore }));
    const outs = await Promise.all(Array.from({ length: 3 }, () => hooks2.invoke(picky, {})));
    // The leader's hit failed to format, so its call ran the tool; the followers were served.
    expect(outs.map((o) => o.result)).toEqual(["fresh", "cached", "cached"]);

    let reads = 0;
    const hooks3 = new ToolHooks();
    hooks3.use(
      cache({
        tools: "picky",
        store: asyncStore,
        now: () => {
          if (++reads === 2) throw new Error("clock skipped");
          return 0;
        },
      }),
    );
    const third = await Promise.all(Array.from({ length: 3 }, () => hooks3.invoke(picky, {})));
    // The leader failed while checking freshness: it ran the tool, and its followers ran on their own.
    expect(third.map((o) => o.result)).toEqual(["fresh", "fresh", "fresh"]);
  });

  it("bypasses inputs it cannot serialise faithfully", async () => {
    const tool = defineTool({
      name: "t",
      execute: (input: { m?: Map<string, number>; self?: unknown }) => Object.keys(input),
    });
    const hooks = new ToolHooks();
    const c = cache({ tools: "t" });
    hooks.use(c);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect((await hooks.invoke(tool, { m: new Map([["a", 1]]) })).status).toBe("ok");
    expect((await hooks.invoke(tool, { m: new Map([["b", 2]]) })).status).toBe("ok");
    expect((await hooks.invoke(tool, cyclic)).status).toBe("ok");
    expect(c.stats()).toMatchObject({ bypassed: 3, hits: 0, stored: 0 });
  });

  it("evicts the least recently used entry", () => {
    const store = memoryCacheStore({ maxEntries: 2 });
    const e = (value: string): CacheEntry => ({ value, expiresAt: 100 });
    store.set("a", e("A"));
    store.set("b", e("B"));
    expect(store.get("a", 0)?.value).toBe("A"); // a is now the most recent
    store.set("c", e("C"));
    expect(store.get("b", 0)).toBeUndefined();
    expect(store.get("a", 0)?.value).toBe("A");
    expect(store.get("c", 100)).toBeUndefined(); // expired at expiresAt
    expect(store.evictions).toBe(1);
    expect(store.size).toBe(1);
  });

  it.each([
    [{ tools: "*", ttl: "forever" }, "`ttl` must be a number of milliseconds or a string"],
    [{ tools: "*", ttl: 0 }, "`ttl` must be a positive, finite duration"],
    [{ tools: "*", store: { get() {} } }, "`store` must implement get, set, delete, deletePrefix, clear"],
    [{ tools: "*", store: memoryCacheStore(), maxEntries: 5 }, "`maxEntries` only applies to the default store"],
    [{ tools: "*", maxEntries: 0 }, "`maxEntries` must be a positive integer"],
    [{ tools: "*", dedupe: "yes" }, "`dedupe` must be a boolean"],
    [{ tools: "*", keyInput: "query" }, "`keyInput` must be a function"],
    [{ tools: "*", ttl: "1m", size: 3 }, "unknown option `size`"],
  ])("rejects %j", (options, message) => {
    expect(() => cache(options as never)).toThrow(TypeError);
    expect(() => cache(options as never)).toThrow(`toolware/cache: ${message}`);
  });
});
