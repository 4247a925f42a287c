import { packTypeError } from "./errors.js";

/**
 * Serialises a value so that equal inputs give equal strings whatever their
 * key order: `JSON.stringify` with object keys sorted (recursively). Where
 * JSON would lose information and make different inputs collide, it does not:
 * `NaN`, `Infinity` and `-Infinity` are written as those bare words and a
 * bigint as `12n`, so the output is then no longer parseable JSON (it is a
 * key, not a document). It throws a `TypeError` for cycles and for values
 * JSON cannot represent faithfully (Map, Set, typed arrays, functions at the
 * top level, promises). Like JSON, object properties that are `undefined`,
 * functions or symbols are left out, array slots holding them become `null`,
 * and objects with `toJSON` (such as Date) are serialised through it.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, { d: null, c: "x" }] }); // '{"a":[true,{"c":"x","d":null}],"b":1}'
 * canonicalJson({ a: 1, b: 2 }) === canonicalJson({ b: 2, a: 1 }); // true
 * canonicalJson(new Map()); // throws TypeError
 * ```
 */
export function canonicalJson(value: unknown): string {
  const out = encode(value, []);
  if (out === undefined)
    throw packTypeError("TOOLWARE_UNSERIALIZABLE_VALUE", `toolware/cache: cannot serialise a ${typeof value}`);
  return out;
}

const UNSUPPORTED = [Map, Set, WeakMap, WeakSet, Promise, ArrayBuffer] as const;

function encode(value: unknown, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      return `${value}n`;
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    default:
      return value === null ? "null" : encodeObject(value as object, ancestors);
  }
}

function encodeObject(obj: object, ancestors: object[]): string {
  if (ancestors.includes(obj))
    throw packTypeError("TOOLWARE_UNSERIALIZABLE_VALUE", "toolware/cache: cannot serialise a value with a cycle");
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") {
    const json = encode((obj as { toJSON(): unknown }).toJSON(), ancestors);
    return json ?? "null";
  }
  if (ArrayBuffer.isView(obj) || UNSUPPORTED.some((type) => obj instanceof type)) {
    throw packTypeError(
      "TOOLWARE_UNSERIALIZABLE_VALUE",
      `toolware/cache: cannot serialise a ${obj.constructor?.name ?? "value"} faithfully`,
    );
  }
  ancestors.push(obj);
  let out: string;
  if (Array.isArray(obj)) {
    const items: string[] = [];
    // An index loop, not map(): holes must read as undefined (null), as in JSON.
    for (let i = 0; i < obj.length; i++) items.push(encode(obj[i], ancestors) ?? "null");
    out = `[${items.join(",")}]`;
  } else {
    const parts: string[] = [];
    for (const key of Object.keys(obj).sort()) {
      const encoded = encode((obj as Record<string, unknown>)[key], ancestors);
      if (encoded !== undefined) parts.push(`${JSON.stringify(key)}:${encoded}`);
    }
    out = `{${parts.join(",")}}`;
  }
  ancestors.pop();
  return out;
}
