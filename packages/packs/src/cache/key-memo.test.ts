// A hit reuses the last call's key when the input holds the same data (key-memo.ts). Through the public pack:
// whatever happens to the input objects between calls, the store must be asked for the key canonicalJson
// gives the input as it is now, and results must be shared exactly when those keys are equal.
import { defineTool, ToolHooks } from "@toolware/core";
import { cache, canonicalJson } from "@toolware/packs/cache";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordingStore } from "./test-fixtures.js";

const SEP = "\u0000";

type Input = Record<string, unknown>;
type Step =
  | { op: "call"; at: number; scope: string }
  | { op: "set"; at: number; key: string; value: unknown }
  | { op: "nested"; at: number; value: unknown }
  | { op: "delete"; at: number; key: string }
  | { op: "push"; at: number; value: unknown }
  | { op: "pop"; at: number }
  | { op: "reorder"; at: number }
  | { op: "swap"; at: number; from: number }
  | { op: "proto"; at: number; to: "null" | "class" | "toJSON" }
  | { op: "fresh"; at: number };

// Values that key alike or almost alike: -0 and 0, "1" and 1, true and "true", [] and {}, null.
const value = fc
  .oneof(
    fc.constantFrom(0, -0, 1, "1", "", true, "true", null, 1.5, Number.NaN, undefined),
    fc.constantFrom([], {}, [1], { a: 1 }, [[]], { "": null }),
    fc.string({ maxLength: 3 }),
  )
  .map(clone); // a fresh object each time: the constants must never be written to
const key = fc.constantFrom("a", "b", "q", "__proto__", "toJSON");
const at = fc.nat(1);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant("call" as const), at, scope: fc.constantFrom("x", "y") }) },
  fc.record({ op: fc.constant("set" as const), at, key, value }),
  fc.record({ op: fc.constant("nested" as const), at, value }),
  fc.record({ op: fc.constant("delete" as const), at, key }),
  fc.record({ op: fc.constant("push" as const), at, value }),
  fc.record({ op: fc.constant("pop" as const), at }),
  fc.record({ op: fc.constant("reorder" as const), at }),
  fc.record({ op: fc.constant("swap" as const), at, from: at }),
  fc.record({
    op: fc.constant("proto" as const),
    at,
    to: fc.constantFrom("null" as const, "class" as const, "toJSON" as const),
  }),
  fc.record({ op: fc.constant("fresh" as const), at }),
);

class Box {}

// The same data in new objects (own enumerable keys, like the spread; prototypes and toJSON are left behind).
function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)])) as T;
}

function apply(inputs: Input[], s: Exclude<Step, { op: "call" }>): void {
  const input = inputs[s.at] as Input;
  switch (s.op) {
    case "set":
      Object.defineProperty(input, s.key, { value: s.value, enumerable: true, configurable: true, writable: true });
      return;
    case "nested": {
      // Writes inside a nested object or array the input already holds, if any.
      const inner = Object.values(input).find((v) => typeof v === "object" && v !== null) as Input | undefined;
      if (inner !== undefined) Reflect.set(inner, Array.isArray(inner) ? 0 : "n", s.value);
      return;
    }
    case "delete":
      delete input[s.key];
      return;
    case "push": {
      const list = Object.values(input).find(Array.isArray) as unknown[] | undefined;
      list?.push(s.value);
      return;
    }
    case "pop": {
      const list = Object.values(input).find(Array.isArray) as unknown[] | undefined;
      list?.pop();
      return;
    }
    case "reorder":
      inputs[s.at] = Object.fromEntries(Object.entries(input).reverse());
      return;
    case "swap":
      inputs[s.at] = inputs[s.from] as Input;
      return;
    case "proto":
      if (s.to === "toJSON") Object.defineProperty(input, "toJSON", { value: () => "j", configurable: true });
      else if (s.to === "null") Object.setPrototypeOf(input, null);
      else {
        // The input itself must stay plain (invoke refuses it otherwise): a nested object becomes a class's.
        const inner = Object.values(input).find((v) => typeof v === "object" && v !== null && !Array.isArray(v));
        if (inner === undefined) input.c = new Box();
        else Object.setPrototypeOf(inner, Box.prototype);
      }
      return;
    case "fresh":
      inputs[s.at] = clone(input);
  }
}

function expected(input: Input, scope: string | undefined): string {
  try {
    const base = `lookup${SEP}${canonicalJson(input)}`;
    return scope === undefined ? base : `${base}${SEP}fn:${scope}`;
  } catch {
    return "bypass";
  }
}

async function replay(steps: Step[], scoped: boolean): Promise<void> {
  const inputs: Input[] = [{ q: "a" }, { q: "a", list: [1] }, { n: { n: 1 }, q: "a" }];
  const store = recordingStore();
  let scope = "x";
  let runs = 0;
  const tool = defineTool({ name: "lookup", execute: () => `run ${++runs}` });
  const hooks = new ToolHooks();
  hooks.use(cache({ tools: "lookup", store, ...(scoped ? { scope: () => scope } : {}) }));
  const served = new Map<string, string>();
  for (const s of steps) {
    if (s.op !== "call") {
      apply(inputs, s);
      continue;
    }
    scope = s.scope;
    const input = inputs[s.at] as Input;
    const want = expected(input, scoped ? scope : undefined);
    const before = store.keys.length;
    const outcome = await hooks.invoke(tool, input);
    expect(store.keys.length > before ? store.keys[before] : "bypass").toBe(want);
    // Results are shared exactly when the keys are equal.
    const result = outcome.result as string;
    if (want !== "bypass" && served.has(want)) expect(result).toBe(served.get(want));
    else expect([...served.values()]).not.toContain(result);
    if (want !== "bypass") served.set(want, result);
  }
}

describe("the cache reuses the last key only for the same data", () => {
  it("asks the store for the input's current key, whatever was done to it between calls (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 60 }), fc.boolean(), (steps, scoped) =>
        replay(steps, scoped),
      ),
      { numRuns: 400 },
    );
  });

  it.each<[string, (input: Input) => void]>([
    ["an array shorter by one", (i) => void (i.list as unknown[]).pop()],
    ["an array longer by one", (i) => void (i.list as unknown[]).push(2)],
    ["an array emptied", (i) => void (i.list as unknown[]).splice(0)],
    ["a nested value changed", (i) => void Object.assign(i.n as Input, { m: 2 })],
    ["a nested key added", (i) => void Object.assign(i.n as Input, { z: 1 })],
    ["a key deleted", (i) => void delete i.q],
    ["a key added", (i) => void Object.assign(i, { r: "a" })],
    ["a string turned number", (i) => void Object.assign(i.n as Input, { m: "1" })],
    ["0 turned -0", (i) => void Object.assign(i, { zero: -0 })],
    ["an object turned array", (i) => void Object.assign(i, { n: [] })],
    [
      "an array turned an object with its indexes and length",
      (i) => void Object.assign(i, { list: { 0: 1, length: 1 } }),
    ],
    ["an array given toJSON", (i) => void Object.defineProperty(i.list, "toJSON", { value: () => 1 })],
    ["a nested object given a class", (i) => void Object.setPrototypeOf(i.n, class Box {}.prototype)],
    ["a nested object given toJSON", (i) => void Object.defineProperty(i.n, "toJSON", { value: () => 1 })],
    ["the input given toJSON", (i) => void Object.defineProperty(i, "toJSON", { value: () => 1 })],
    ["the input given a null prototype", (i) => void Object.setPrototypeOf(i, null)],
    ["a value turned undefined", (i) => void Object.assign(i, { q: undefined })],
    ["a value turned NaN", (i) => void Object.assign(i, { q: Number.NaN })],
    [
      "the keys reordered (the same key)",
      (i) => {
        const { list } = i;
        delete i.list;
        Object.assign(i, { list });
      },
    ],
  ])("keys the input again after %s", async (_, change) => {
    const store = recordingStore();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "lookup", store }));
    const tool = defineTool({ name: "lookup", execute: () => "r" });
    const input: Input = { list: [1], n: { m: 1 }, q: "a", zero: 0 };
    await hooks.invoke(tool, input);
    await hooks.invoke(tool, input);
    change(input);
    await hooks.invoke(tool, input);
    const first = expected({ list: [1], n: { m: 1 }, q: "a", zero: 0 }, undefined);
    expect(store.keys.slice(0, 2)).toEqual([first, first]);
    expect(store.keys.length === 3 ? store.keys[2] : "bypass").toBe(expected(input, undefined));
  });

  it("sees a change deep in a nested input, and in an input too large to remember", async () => {
    const store = recordingStore();
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "lookup", execute: (input: Input) => JSON.stringify(input) });
    hooks.use(cache({ tools: "lookup", store }));
    const deep: Input = { a: { b: { c: { d: { e: [1, { f: "x" }] } } } } };
    const wide: Input = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    for (const input of [deep, wide]) {
      await hooks.invoke(tool, input);
      await hooks.invoke(tool, input);
      if (input === deep) (((((deep.a as Input).b as Input).c as Input).d as Input).e as Input[])[1] = { f: "y" };
      else wide.k49 = "changed";
      const outcome = await hooks.invoke(tool, input);
      expect(outcome.result).toBe(JSON.stringify(input));
    }
    expect(store.keys.map((k) => k.slice(k.indexOf(SEP) + 1))).toEqual([
      canonicalJson({ a: { b: { c: { d: { e: [1, { f: "x" }] } } } } }),
      canonicalJson({ a: { b: { c: { d: { e: [1, { f: "x" }] } } } } }),
      canonicalJson(deep),
      ...[0, 0].map(() => canonicalJson({ ...wide, k49: 49 })),
      canonicalJson(wide),
    ]);
  });

  it("keys a tool apart from another with the same input", async () => {
    const store = recordingStore();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "*", store }));
    const input = { q: "same" };
    for (const name of ["one", "two", "one"]) {
      await hooks.invoke(defineTool({ name, execute: () => name }), input);
    }
    expect(store.keys).toEqual([`one${SEP}{"q":"same"}`, `two${SEP}{"q":"same"}`, `one${SEP}{"q":"same"}`]);
  });
});
