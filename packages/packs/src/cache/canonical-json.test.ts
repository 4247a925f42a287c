import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./index.js";

describe("canonicalJson", () => {
  it("sorts keys recursively and keeps JSON's rules", () => {
    expect(canonicalJson({ b: 1, a: [true, { d: null, c: "x" }] })).toBe('{"a":[true,{"c":"x","d":null}],"b":1}');
    // biome-ignore lint/suspicious/noSparseArray: a hole must serialise like JSON's null
    expect(canonicalJson({ u: undefined, f: () => 1, a: [undefined, , 1] })).toBe('{"a":[null,null,1]}');
    expect(canonicalJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
    expect(canonicalJson("é\n")).toBe('"é\\n"');
  });

  it("keeps apart what JSON would merge", () => {
    const keys = [null, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1n, "1", 1].map((v) =>
      canonicalJson({ v }),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("refuses cycles and lossy types, but allows shared references", () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic.me = [cyclic];
    expect(() => canonicalJson(cyclic)).toThrow("toolware/cache: cannot serialise a value with a cycle");
    expect(() => canonicalJson({ s: new Set([1]) })).toThrow("cannot serialise a Set faithfully");
    expect(() => canonicalJson(new Uint8Array(2))).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });

  it("does not depend on key order, and round-trips JSON values (property)", () => {
    const shuffle = (v: unknown, seed: number): unknown => {
      if (Array.isArray(v)) return v.map((x) => shuffle(x, seed));
      if (v === null || typeof v !== "object") return v;
      const entries = Object.entries(v);
      const rotated = entries.map((_, i) => entries[(i + seed) % entries.length] as [string, unknown]).reverse();
      return Object.fromEntries(rotated.map(([k, x]) => [k, shuffle(x, seed + 1)]));
    };
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(10), (value, seed) => {
        const key = canonicalJson(value);
        expect(canonicalJson(shuffle(value, seed))).toBe(key);
        expect(JSON.parse(key)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
