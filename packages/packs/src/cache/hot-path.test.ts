import { Agent, defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CacheEntry, cache, canonicalJson, memoryCacheStore } from "./index.js";

// The hit path computes its key without the tracking proxy and a general encoder for plain data, and the
// default store skips reordering a hot key: none of it may change which calls share a result.

function counted() {
  const runs: unknown[] = [];
  const tool = defineTool({
    name: "lookup",
    execute: (input: Record<string, unknown>) => {
      runs.push(input);
      return `r${runs.length}`;
    },
  });
  return { tool, runs };
}

// Inputs of every kind: plain JSON, and values only the general encoder handles (or refuses).
const odd = fc.oneof(
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(undefined),
  fc.bigInt(),
  fc.date({ noInvalidDate: true }),
  fc.constant(new Map()),
  fc.constant(() => 1),
);
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    odd,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;
const inputs = fc.dictionary(fc.string({ maxLength: 6 }), values, { maxKeys: 4 });

function shuffled(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).reverse());
}

describe("cache hot path", () => {
  it("serves the same input in any key order, and invalidate() finds its entry (property)", async () => {
    await fc.assert(
      fc.asyncProperty(inputs, async (input) => {
        const { tool, runs } = counted();
        const hooks = new ToolHooks();
        const c = cache({ tools: "lookup" });
        hooks.use(c);
        let serialisable = true;
        try {
          canonicalJson(input);
        } catch {
          serialisable = false;
        }
        const first = await hooks.invoke(tool, input);
        const second = await hooks.invoke(tool, shuffled(input));
        expect(first.status).toBe("ok");
        // Whatever canonicalJson refuses runs uncached; everything else is a hit the second time.
        expect(runs).toHaveLength(serialisable ? 1 : 2);
        expect(second.result).toBe(serialisable ? first.result : "r2");
        expect(c.stats().bypassed).toBe(serialisable ? 0 : 2);
        if (serialisable) expect(await c.invalidate(tool, input)).toBe(1);
      }),
      { numRuns: 150 },
    );
  });

  it("tells inputs apart exactly when their canonical JSON differs (property)", async () => {
    const plain = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    await fc.assert(
      fc.asyncProperty(plain, plain, async (a, b) => {
        const { tool, runs } = counted();
        const hooks = new ToolHooks();
        hooks.use(cache({ tools: "lookup" }));
        await hooks.invoke(tool, a);
        await hooks.invoke(tool, b);
        expect(runs).toHaveLength(canonicalJson(a) === canonicalJson(b) ? 1 : 2);
      }),
      { numRuns: 150 },
    );
  });

  it("keys on the input as outer hooks rewrote it, and a keyInput function still sees the tracked input", async () => {
    const { tool, runs } = counted();
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.toolInput.q = String(ctx.toolInput.q).trim().toLowerCase();
    });
    hooks.use(cache({ tools: "lookup" }));
    await hooks.invoke(tool, { q: " Onions " });
    const hit = await hooks.invoke(tool, { q: "onions" });
    expect(runs).toEqual([{ q: "onions" }]);
    expect(hit.trace.map((e) => e.action)).toEqual(["modified-input", "substituted"]);

    const tracked = new ToolHooks();
    tracked.use(
      cache({
        tools: "lookup",
        keyInput: (input) => {
          delete input.nonce;
          return input;
        },
      }),
    );
    const { tool: other, runs: otherRuns } = counted();
    await tracked.invoke(other, { q: "a", nonce: 1 });
    const again = await tracked.invoke(other, { q: "a", nonce: 2 });
    expect(otherRuns).toEqual([{ q: "a" }]);
    // The write went through ctx.toolInput, so the trace still says the cache changed the input.
    expect(again.trace[0]?.action).toBe("substituted");
    const miss = await tracked.invoke(other, { q: "b", nonce: 3 });
    expect(miss.trace[0]?.action).toBe("modified-input");
  });

  it("keeps scopes apart on the fast key", async () => {
    const { tool, runs } = counted();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "lookup", scope: "agent" }));
    const ann = new Agent({ role: "ann" });
    const bob = new Agent({ role: "bob" });
    await hooks.invoke(tool, { q: 1 }, { agent: ann });
    await hooks.invoke(tool, { q: 1 }, { agent: bob });
    await hooks.invoke(tool, { q: 1 }, { agent: ann });
    expect(runs).toHaveLength(2);
  });
});

describe("memoryCacheStore order", () => {
  type Op =
    | { op: "get"; key: string; now: number }
    | { op: "set"; key: string; expiresAt: number }
    | { op: "delete"; key: string }
    | { op: "deletePrefix"; prefix: string }
    | { op: "clear" };

  function ops(keys: string[], prefixes: string[], removeWeight: number, clearWeight: number): fc.Arbitrary<Op> {
    const key = fc.constantFrom(...keys);
    return fc.oneof(
      {
        weight: 40,
        arbitrary: fc.record({ op: fc.constant("get" as const), key, now: fc.integer({ min: 0, max: 20 }) }),
      },
      {
        weight: 40,
        arbitrary: fc.record({ op: fc.constant("set" as const), key, expiresAt: fc.integer({ min: 0, max: 20 }) }),
      },
      { weight: removeWeight, arbitrary: fc.record({ op: fc.constant("delete" as const), key }) },
      {
        weight: removeWeight,
        arbitrary: fc.record({ op: fc.constant("deletePrefix" as const), prefix: fc.constantFrom(...prefixes) }),
      },
      { weight: clearWeight, arbitrary: fc.record({ op: fc.constant("clear" as const) }) },
    );
  }

  // Replays the operations on the store and on a model that keeps entries in an array, least recently used
  // first, reordering on every read: sizes, answers and evictions must agree after every step.
  function agrees(maxEntries: number, steps: Op[]): void {
    const store = memoryCacheStore({ maxEntries });
    const model: [string, CacheEntry][] = [];
    let evictions = 0;
    const drop = (k: string) => {
      const i = model.findIndex(([m]) => m === k);
      if (i >= 0) model.splice(i, 1);
      return i >= 0;
    };
    for (const o of steps) {
      if (o.op === "get") {
        const found = model.find(([m]) => m === o.key)?.[1];
        let expected: CacheEntry | undefined;
        if (found !== undefined) {
          drop(o.key);
          if (found.expiresAt > o.now) {
            model.push([o.key, found]);
            expected = found;
          }
        }
        expect(store.get(o.key, o.now)).toBe(expected);
      } else if (o.op === "set") {
        const entry = { value: o.key, expiresAt: o.expiresAt };
        drop(o.key);
        model.push([o.key, entry]);
        while (model.length > maxEntries) {
          model.shift();
          evictions++;
        }
        store.set(o.key, entry);
      } else if (o.op === "delete") {
        expect(store.delete(o.key)).toBe(drop(o.key));
      } else if (o.op === "deletePrefix") {
        const gone = model.filter(([m]) => m.startsWith(o.prefix)).map(([m]) => m);
        for (const g of gone) drop(g);
        expect(store.deletePrefix(o.prefix)).toBe(gone.length);
      } else {
        model.length = 0;
        store.clear();
      }
      expect(store.size).toBe(model.length);
      expect(store.evictions).toBe(evictions);
    }
    // Whatever is left is served, each entry once more, and nothing else is.
    for (const [k, entry] of [...model]) expect(store.get(k, -1)).toBe(entry);
  }

  it("evicts the least recently used entry, like a model that reorders on every read (property)", () => {
    const small = ops(["a", "b", "c", "d", "ab"], ["a", "b", ""], 10, 10);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(small, { maxLength: 60 }), (maxEntries, steps) =>
        agrees(maxEntries, steps),
      ),
    );
  });

  it("keeps the order over more entries than it first has room for, reusing the slots it frees (property)", () => {
    const keys = Array.from({ length: 60 }, (_, i) => `k${i}`);
    const large = ops(keys, ["k1", "k2", "k5"], 2, 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(large, { minLength: 200, maxLength: 400 }),
        (maxEntries, steps) => agrees(maxEntries, steps),
      ),
      { numRuns: 100 },
    );
  });
});

describe("memoryCacheStore at size", () => {
  it("evicts exactly the least recently read of 200 entries, however the reads went", () => {
    const store = memoryCacheStore({ maxEntries: 200 });
    const entries = Array.from({ length: 200 }, (_, i) => ({ value: i, expiresAt: 10 }));
    entries.forEach((entry, i) => void store.set(`k${i}`, entry));
    // Read every entry once, in a scrambled order: that order is now the recency order.
    const order = Array.from({ length: 200 }, (_, i) => (i * 37) % 200);
    for (const i of order) expect(store.get(`k${i}`, 0)).toBe(entries[i]);
    for (let j = 0; j < 150; j++) store.set(`new${j}`, { value: j, expiresAt: 10 });
    expect(store.evictions).toBe(150);
    for (const [rank, i] of order.entries()) expect(store.get(`k${i}`, 0)).toBe(rank < 150 ? undefined : entries[i]);
    expect(store.size).toBe(200);
  });
});
