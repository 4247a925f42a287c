import { MAX_ITEMS } from "./spec-types.js";
import { type Entry, MAX_DEPTH, NO_POS, type Tree } from "./tree.js";

// An object given in code, read defensively: getters and Proxy traps that throw, cycles, symbols, class instances
// and functions become "other" nodes the checker refuses, never an exception out of the loader.

function kindOf(value: object): string {
  try {
    if (typeof value === "function") return "a function";
    const proto = Object.getPrototypeOf(value);
    if (proto === null || proto === Object.prototype) return "plain";
    if (Array.isArray(value)) return "array";
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "" ? `a ${name}` : "an object with a custom prototype";
  } catch {
    return "an object that cannot be inspected";
  }
}

function other(what: string, problem?: string): Tree {
  return problem === undefined ? { t: "other", pos: NO_POS, what } : { t: "other", pos: NO_POS, what, problem };
}

function build(value: unknown, depth: number, open: Set<object>): Tree {
  if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number") {
    return { t: "scalar", pos: NO_POS, value };
  }
  if (value === undefined) return other("undefined");
  if (typeof value === "bigint") return other(`the bigint ${value}n`, "write a number");
  if (typeof value === "symbol") return other("a symbol");
  const kind = kindOf(value as object);
  if (kind !== "plain" && kind !== "array") return other(kind, "a policy holds plain data only");
  if (depth >= MAX_DEPTH) return other("a value", `nested more than ${MAX_DEPTH} levels deep`);
  if (open.has(value as object)) return other("a cycle", "the object contains itself");
  open.add(value as object);
  try {
    return kind === "array" ? buildArray(value as unknown[], depth, open) : buildObject(value as object, depth, open);
  } catch {
    return other("an object that cannot be read", "a getter or Proxy trap threw");
  } finally {
    open.delete(value as object);
  }
}

function buildArray(array: unknown[], depth: number, open: Set<object>): Tree {
  const length = array.length;
  if (!Number.isSafeInteger(length) || length > MAX_ITEMS) {
    return other(`a list of ${length} entries`, `a list holds at most ${MAX_ITEMS} entries`);
  }
  const items: Tree[] = [];
  for (let i = 0; i < length; i++) items.push(build(array[i], depth + 1, open));
  return { t: "seq", pos: NO_POS, items };
}

function buildObject(object: object, depth: number, open: Set<object>): Tree {
  if (Object.getOwnPropertySymbols(object).length > 0) {
    return other("an object with symbol keys", "a policy's keys are strings");
  }
  const keys = Object.keys(object);
  if (keys.length > MAX_ITEMS) return other(`a map of ${keys.length} keys`, `a map holds at most ${MAX_ITEMS} keys`);
  const entries: Entry[] = [];
  for (const key of keys) {
    // Read once: a getter answering differently on a second read cannot pass the check with one value.
    const value = (object as Record<string, unknown>)[key];
    // `{ mode: undefined }` is a key left out, as in every toolware options object.
    if (value === undefined) continue;
    entries.push({ key, keyWhat: "a string", keyPos: NO_POS, value: build(value, depth + 1, open) });
  }
  return { t: "map", pos: NO_POS, entries };
}

/** The tree of an object given in code. Never throws. */
export function treeFromObject(value: unknown): Tree {
  return build(value, 0, new Set());
}
