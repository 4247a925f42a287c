import type { ToolInput } from "@toolware/core";

// The key of the last call, and a copy of the plain data it was built from. Building a key from even a
// one-field input costs more than the rest of a hit (the quotes, a fresh string of several pieces, and a
// store that must compare or hash that fresh string), while an agent asks a hot tool the same thing many
// times. When the next call's input holds the same data, the same key string is handed back: the store
// then sees a key equal, character for character, to the one it would have been given, and the default
// store knows it at a glance. Only what the fast writer of key.ts keys without canonicalJson is copied
// (plain objects and arrays of strings, finite numbers, booleans and null), and only a small input: the
// copy must cost less than the key it saves.

// The copy is one flat array, rewritten in place for each new key (no allocation but Object.keys): a plain
// object is OBJECT, its key count, then each key and its value's copy, in Object.keys order; an array is
// ARRAY, its length, then its items; anything else is itself. The markers are private: no input holds them.
const OBJECT = Symbol("object");
const ARRAY = Symbol("array");

const MAX_DEPTH = 4;
// Most slots a copy takes: a larger input is keyed afresh each time.
const MAX_SLOTS = 64;

function plainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

// Appends the copy of `value`; false when it is not small plain data (the copy is then unusable).
function write(out: unknown[], value: unknown, depth: number): boolean {
  if (out.length >= MAX_SLOTS) return false;
  switch (typeof value) {
    case "string":
    case "boolean":
      out.push(value);
      return true;
    case "number":
      out.push(value);
      return Number.isFinite(value);
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) {
    out.push(null);
    return true;
  }
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    out.push(ARRAY, value.length);
    for (let i = 0; i < value.length; i++) if (!write(out, value[i], depth + 1)) return false;
    return true;
  }
  if (!plainObject(value)) return false;
  const keys = Object.keys(value);
  out.push(OBJECT, keys.length);
  for (const key of keys) {
    out.push(key);
    if (!write(out, (value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

// Where match() reads in the copy.
let at = 0;

// Whether `value` holds the data of the copy from `at` on. The keys must come in the same order (what a
// producer of the same call does): another order is the same key, but is only recognised by building it.
function match(copy: readonly unknown[], value: unknown): boolean {
  const token = copy[at++];
  if (token === OBJECT) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !plainObject(value)) return false;
    const keys = Object.keys(value);
    const n = keys.length;
    if (n !== copy[at++]) return false;
    for (let i = 0; i < n; i++) {
      const key = keys[i] as string;
      if (key !== copy[at++] || !match(copy, (value as Record<string, unknown>)[key])) return false;
    }
    return true;
  }
  if (token === ARRAY) {
    if (!Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    const n = value.length;
    if (n !== copy[at++]) return false;
    for (let i = 0; i < n; i++) if (!match(copy, value[i])) return false;
    return true;
  }
  // -0 and 0 key alike ("0"), and are ===; every other finite number is written apart.
  return token === value;
}

// The data of the copy from `at` on, in new plain objects. (A null prototype would keep "__proto__" a plain
// key too, but puts the object in V8's slow dictionary mode, which the key writer then walks.)
function rebuild(copy: readonly unknown[]): unknown {
  const token = copy[at++];
  if (token === OBJECT) {
    const n = copy[at++] as number;
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const key = copy[at++] as string;
      const value = rebuild(copy);
      if (key === "__proto__")
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
    }
    return obj;
  }
  if (token === ARRAY) {
    const n = copy[at++] as number;
    const list: unknown[] = new Array(n);
    for (let i = 0; i < n; i++) list[i] = rebuild(copy);
    return list;
  }
  return token;
}

/** The last key and the data it stands for. @internal */
export class KeyMemo {
  #tool: string | undefined = undefined;
  readonly #copy: unknown[] = [];
  #usable = false;
  #key = "";

  /** The last key, when `input` for `tool` holds the same data it was built from. */
  recall(tool: string, input: object): string | undefined {
    if (!this.#usable || tool !== this.#tool) return undefined;
    at = 0;
    return match(this.#copy, input) ? this.#key : undefined;
  }

  /**
   * Keeps a copy of `input` and returns its key. The key is built from the copy, not from `input`: a getter
   * or a Proxy may give each read another value, and the key kept must be that of the data kept.
   */
  remember(tool: string, input: ToolInput, keyOf: (tool: string, data: ToolInput) => string): string {
    this.#tool = tool;
    this.#copy.length = 0;
    this.#usable = false;
    if (write(this.#copy, input, 0)) {
      at = 0;
      this.#key = keyOf(tool, rebuild(this.#copy) as ToolInput);
      this.#usable = true;
    } else {
      this.#key = keyOf(tool, input);
    }
    return this.#key;
  }
}
