// Adversarial probes of the last-key memo (key-memo.ts) through the public pack: an input whose reads disagree
// (getters, Proxy traps) must never leave the memo holding a key for data other than the data it copied, so a
// later plain input is always looked up under its own canonical key.
import { defineTool, ToolHooks } from "@toolware/core";
import { cache, canonicalJson } from "@toolware/packs/cache";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordingStore } from "./test-fixtures.js";

const SEP = "\u0000";

function setup() {
  const tool = defineTool({ name: "lookup", execute: (input: { x?: unknown }) => `x=${String(input.x)}` });
  const store = recordingStore();
  const hooks = new ToolHooks();
  hooks.use(cache({ tools: "lookup", store }));
  /** The key the store was asked for on a call with `input`. */
  const keyOf = async (input: { x?: unknown }): Promise<string | undefined> => {
    const before = store.keys.length;
    await hooks.invoke(tool, input);
    return store.keys[before];
  };
  return { keyOf };
}

const plainKey = (input: object): string => `lookup${SEP}${canonicalJson(input)}`;

// Each read of `x` gives the next value: the key and the memo's copy may each see another.
function counting(values: unknown[]): { x?: unknown } {
  let i = 0;
  return Object.defineProperty({}, "x", { enumerable: true, get: () => values[Math.min(i++, values.length - 1)] });
}

describe("the key memo and inputs whose reads disagree", () => {
  it("a getter that changes between reads does not hand its key to a later plain input", async () => {
    const { keyOf } = setup();
    await keyOf(counting([1, 2]));
    // Before the fix the memo kept the key of x = 1 with a copy of x = 2: { x: 2 } was looked up as { x: 1 }.
    expect(await keyOf({ x: 2 })).toBe(plainKey({ x: 2 }));
  });

  it("a Proxy whose get trap changes per read does not hand its key to a later plain input", async () => {
    const { keyOf } = setup();
    let reads = 0;
    const input = new Proxy({ x: 0 }, { get: (t, k) => (k === "x" ? ++reads : Reflect.get(t, k)) });
    await keyOf(input);
    expect(await keyOf({ x: 2 })).toBe(plainKey({ x: 2 }));
    expect(await keyOf({ x: 1 })).toBe(plainKey({ x: 1 }));
  });

  it("a Proxy whose ownKeys trap changes per read does not hand its key to a later plain input", async () => {
    const { keyOf } = setup();
    let calls = 0;
    const input = new Proxy({ x: 1, y: 1 } as { x?: unknown }, {
      ownKeys: () => (++calls % 2 === 1 ? ["x"] : ["x", "y"]),
    });
    await keyOf(input);
    expect(await keyOf({ x: 1 })).toBe(plainKey({ x: 1 }));
    expect(await keyOf({ x: 1, y: 1 } as { x?: unknown })).toBe(plainKey({ x: 1, y: 1 }));
  });

  it("whatever a getter returns read after read, every later plain input is looked up under its own key", async () => {
    const item = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom("0", -0, null, [0], { x: 0 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 1, maxLength: 6 }),
        fc.array(item, { minLength: 1, maxLength: 4 }),
        async (reads, plains) => {
          const { keyOf } = setup();
          await keyOf(counting(reads));
          for (const x of plains) expect(await keyOf({ x })).toBe(plainKey({ x }));
        },
      ),
    );
  });

  it("a before-hook that writes the input, in place or nested, is keyed by what it wrote", async () => {
    const store = recordingStore();
    const hooks = new ToolHooks();
    let n = 0;
    hooks.before((ctx) => {
      const input = ctx.toolInput as { x?: unknown; n?: { v: number } };
      n++;
      if (n % 2 === 0) input.x = n;
      if (input.n !== undefined) input.n.v = n % 3;
    });
    hooks.use(cache({ tools: "lookup", store }));
    const tool = defineTool({ name: "lookup", execute: (input: object) => canonicalJson(input) });
    const shared = { x: 0, n: { v: 0 } };
    for (let i = 0; i < 8; i++) {
      const outcome = await hooks.invoke(tool, shared);
      expect(store.keys.at(-1)).toBe(plainKey(shared));
      expect(outcome.result).toBe(canonicalJson(shared));
    }
  });

  it("a tool that writes its input in place does not make the memo's copy follow", async () => {
    const { keyOf } = setupMutating();
    const input = { x: 1, list: [1] };
    expect(await keyOf(input)).toBe(plainKey({ x: 1, list: [1] }));
    // The tool pushed to the list and bumped x: the next call with the same object is other data.
    expect(await keyOf(input)).toBe(plainKey({ x: 2, list: [1, 2] }));
    expect(await keyOf({ x: 2, list: [1, 2] })).toBe(plainKey({ x: 2, list: [1, 2] }));
  });

  it("tricky plain data: null prototypes, __proto__ keys, lone surrogates, -0, long strings, two tools", async () => {
    const store = recordingStore();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: ["lookup", "other"], store }));
    const lookup = defineTool({ name: "lookup", execute: () => "l" });
    const other = defineTool({ name: "other", execute: () => "o" });
    const bare = Object.create(null) as Record<string, unknown>;
    // A null-prototype object holds "__proto__" as a plain own key.
    Object.defineProperty(bare, "__proto__", { value: "p", enumerable: true, writable: true, configurable: true });
    const withProto = JSON.parse('{"__proto__":{"a":1}}') as object;
    const long = "y".repeat(5000);
    const inputs: object[] = [
      bare,
      { __proto__: null, a: 1 },
      withProto,
      JSON.parse('{"__proto__":{"a":2}}') as object,
      { s: "\ud800" },
      { s: "\udc00" },
      { s: "\ud800\udc00" },
      { x: -0 },
      { x: 0 },
      { s: long },
      { s: `${long}z` },
      { a: [1, [2, [3]]] },
      { a: [1, [2, [4]]] },
    ];
    for (const tool of [lookup, other, lookup]) {
      for (const input of [...inputs, ...inputs.slice().reverse()]) {
        const before = store.keys.length;
        await hooks.invoke(tool, input);
        expect(store.keys[before]).toBe(`${tool.name}${SEP}${canonicalJson(input)}`);
      }
    }
  });

  it("two cache packs keep their memos apart", async () => {
    const a = setup();
    const b = setup();
    expect(await a.keyOf({ x: 1 })).toBe(plainKey({ x: 1 }));
    expect(await b.keyOf({ x: 2 })).toBe(plainKey({ x: 2 }));
    expect(await a.keyOf({ x: 2 })).toBe(plainKey({ x: 2 }));
    expect(await b.keyOf({ x: 1 })).toBe(plainKey({ x: 1 }));
  });
});

function setupMutating() {
  const tool = defineTool({
    name: "lookup",
    execute: (input: { x: number; list: number[] }) => {
      input.x++;
      input.list.push(input.list.length + 1);
      return "ran";
    },
  });
  const store = recordingStore();
  const hooks = new ToolHooks();
  hooks.use(cache({ tools: "lookup", store }));
  const keyOf = async (input: { x: number; list: number[] }): Promise<string | undefined> => {
    const before = store.keys.length;
    await hooks.invoke(tool, input);
    return store.keys[before];
  };
  return { keyOf };
}
