// Adversarial probes of the cache's fast key (key.ts): through the public pack, the key a store is asked for must be
// the tool name and canonicalJson of the input as the tool will receive it, for every input.
import { Agent, Crew, defineTool, ToolHooks } from "@toolware/core";
import { cache, canonicalJson } from "@toolware/packs/cache";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { recordingStore } from "./test-fixtures.js";

const SEP = "\u0000";

const tool = defineTool({ name: "lookup", execute: (input: object) => JSON.stringify(Object.keys(input)) });

/** The key the store was asked for, or "bypass" when the call ran uncached. */
async function keyFor(input: object, before?: (input: Record<string, unknown>) => void): Promise<string> {
  const store = recordingStore();
  const hooks = new ToolHooks();
  if (before !== undefined) hooks.before((ctx) => before(ctx.toolInput as Record<string, unknown>));
  hooks.use(cache({ tools: "lookup", store }));
  const outcome = await hooks.invoke(tool, input as Record<string, unknown>);
  expect(outcome.status).toBe("ok");
  return store.keys[0] ?? "bypass";
}

function expected(input: unknown): string {
  try {
    return `lookup${SEP}${canonicalJson(input)}`;
  } catch {
    return "bypass";
  }
}

function deep(levels: number): object {
  let value: object = { leaf: 1 };
  for (let i = 0; i < levels; i++) value = { v: value };
  return value;
}

// A hole must key as null, as in JSON.
const sparse: unknown[] = [1];
sparse[2] = 3;
const withExtra = Object.assign([1, 2], { extra: "ignored" });
const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const nullProto = Object.assign(Object.create(null) as object, { b: 2, a: 1 });
const getterInput = Object.defineProperty({}, "g", { get: () => "got", enumerable: true });

const CASES: [string, object][] = [
  ["__proto__ as an own key (parsed JSON)", JSON.parse('{"__proto__":{"x":1},"a":2}')],
  ["__proto__ nested", JSON.parse('{"q":{"__proto__":[1,2]}}')],
  ["toJSON on a nested object", { a: { toJSON: () => "j" } }],
  ["toJSON returning undefined", { a: { toJSON: () => undefined } }],
  ["toJSON on the top level", { toJSON: () => ({ z: 1 }), q: 2 }],
  ["a Date", { at: new Date(0) }],
  ["NaN and the infinities", { a: Number.NaN, b: Number.POSITIVE_INFINITY, c: Number.NEGATIVE_INFINITY }],
  ["-0", { a: -0, b: [-0] }],
  ["a sparse array", { a: sparse }],
  ["an array with a named property", { a: withExtra }],
  ["undefined, a function and a symbol as values", { a: undefined, b: () => 1, c: Symbol("s"), d: 1 }],
  ["a symbol key", { [Symbol("k")]: 1, a: 2 }],
  ["a BigInt", { n: 12n }],
  ["a cycle", cyclic],
  ["a null-prototype object", { o: nullProto }],
  ["a boxed string", { s: new String("x") }],
  ["an enumerable getter", getterInput],
  ["lone surrogates", { "\ud800": "\udfff" }],
  ["40 levels deep", deep(40)],
  ["a Map", { m: new Map([[1, 2]]) }],
];

describe("the cache's fast key", () => {
  it.each(CASES)("equals canonicalJson's for %s", async (_, input) => {
    expect(await keyFor(input)).toBe(expected(input));
  });

  it("an input nested 20000 deep runs uncached, and invoke resolves", async () => {
    expect(await keyFor(deep(20_000))).toMatch(new RegExp(`^(bypass|lookup${SEP})`));
  });

  it("equals canonicalJson's for random values (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.string(),
          fc.anything({
            withBigInt: true,
            withDate: true,
            withNullPrototype: true,
            withSparseArray: true,
            withBoxedValues: true,
          }),
        ),
        async (input) => {
          expect(await keyFor(input)).toBe(expected(input));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("quotes keys and strings exactly as JSON does, at every escape boundary and length (property)", async () => {
    // Both sides of each range JSON.stringify escapes, a surrogate pair, and lengths around the hand scan's 16.
    const edges = [
      "\u0000",
      "\u001f",
      " ",
      '"',
      "\\",
      "~",
      "\u007f",
      "\ud7ff",
      "\ud800",
      "\udbff",
      "\udc00",
      "\udfff",
      "\ue000",
    ];
    const text = fc.oneof(
      fc.string({ unit: "binary", maxLength: 40 }),
      fc
        .array(fc.oneof(fc.constantFrom(...edges, "\ud83d\ude00"), fc.string({ maxLength: 3 })), { maxLength: 20 })
        .map((parts) => parts.join("")),
    );
    await fc.assert(
      fc.asyncProperty(text, text, async (k, v) => {
        expect(await keyFor({ [k]: v, [`${k}.`]: [v] })).toBe(expected({ [k]: v, [`${k}.`]: [v] }));
      }),
      { numRuns: 300 },
    );
    for (const c of edges) {
      for (const n of [1, 15, 16, 17, 40]) {
        const s = "a".repeat(n - 1) + c;
        expect(await keyFor({ [s]: s })).toBe(expected({ [s]: s }));
      }
    }
  });

  it("follows what earlier hooks wrote into the input, however they wrote it", async () => {
    const writes: [string, (input: Record<string, unknown>) => void, object][] = [
      [
        "set a key",
        (i) => {
          i.q = "new";
        },
        { q: "new" },
      ],
      ["delete a key", (i) => void delete i.drop, { q: "old" }],
      [
        "write inside a nested object",
        (i) => {
          (i.nested as Record<string, unknown>).x = 2;
        },
        { nested: { x: 2 }, q: "old" },
      ],
      ["push to a nested array", (i) => void (i.list as unknown[]).push(3), { list: [1, 3], q: "old" }],
      [
        "assign __proto__",
        (i) => {
          Reflect.set(i, "__proto__", { p: 1 });
        },
        JSON.parse('{"__proto__":{"p":1},"q":"old"}'),
      ],
      [
        "defineProperty",
        (i) => void Object.defineProperty(i, "d", { value: 1, enumerable: true, configurable: true }),
        { d: 1, q: "old" },
      ],
    ];
    for (const [label, write, after] of writes) {
      const input = label.includes("nested object")
        ? { nested: { x: 1 }, q: "old" }
        : label.includes("array")
          ? { list: [1], q: "old" }
          : label.includes("delete")
            ? { q: "old", drop: 1 }
            : { q: "old" };
      expect(await keyFor(input, write), label).toBe(expected(after));
    }
  });

  it("keeps scopes apart: the scope follows the input part and differs per scope", async () => {
    const store = recordingStore();
    const hooks = new ToolHooks();
    let tenant = "a";
    hooks.use(cache({ tools: "lookup", store, scope: () => tenant }));
    await hooks.invoke(tool, { q: 1 });
    tenant = "b";
    await hooks.invoke(tool, { q: 1 });
    expect(store.keys).toEqual([`lookup${SEP}{"q":1}${SEP}fn:a`, `lookup${SEP}{"q":1}${SEP}fn:b`]);
  });
});

describe("cache scopes never let two callers share entries", () => {
  it("keeps an agent or crew named like the no-agent marker apart from calls without one", async () => {
    for (const scope of ["agent", "crew"] as const) {
      let runs = 0;
      const tool = defineTool({ name: "lookup", execute: () => ++runs });
      const hooks = new ToolHooks();
      hooks.use(cache({ tools: "*", scope }));
      const who = scope === "agent" ? { agent: new Agent({ role: "(none)" }) } : { crew: new Crew({ name: "(none)" }) };
      await hooks.invoke(tool, { q: 1 });
      const other = await hooks.invoke(tool, { q: 1 }, who);
      expect(other.result).toBe("2");
      expect(runs).toBe(2);
    }
  });
});
