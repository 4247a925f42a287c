// The key of the last call, and a copy of the plain data it was built from. Building a key from even a
// one-field input costs more than the rest of a hit (the quotes, a fresh string of several pieces, and a
// store that must compare or hash that fresh string), while an agent asks a hot tool the same thing many
// times. When the next call's input holds the same data, the same key string is handed back: the store
// then sees a key equal, character for character, to the one it would have been given, and the default
// store knows it at a glance. Only what the fast writer of key.ts keys without canonicalJson is copied
// (plain objects and arrays of strings, finite numbers, booleans and null), and only a small input: the
// copy must cost less than the key it saves.

// A plain object as Object.keys listed it, with each value's copy.
class ObjectCopy {
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

class ArrayCopy {
  constructor(readonly items: readonly unknown[]) {}
}

const MAX_DEPTH = 4;
const MAX_NODES = 32;
// Returned when a value is not worth copying (too large) or not plain data.
const NONE = undefined;

type Budget = { nodes: number };

function plainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== "function";
}

function copyOf(value: unknown, depth: number, budget: Budget): unknown {
  if (--budget.nodes < 0) return NONE;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : NONE;
    case "object":
      break;
    default:
      return NONE;
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return NONE;
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return NONE;
    const items: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const item = copyOf(value[i], depth + 1, budget);
      if (item === NONE) return NONE;
      items.push(item);
    }
    return new ArrayCopy(items);
  }
  if (!plainObject(value)) return NONE;
  const keys = Object.keys(value);
  const values: unknown[] = [];
  for (const key of keys) {
    const item = copyOf((value as Record<string, unknown>)[key], depth + 1, budget);
    if (item === NONE) return NONE;
    values.push(item);
  }
  return new ObjectCopy(keys, values);
}

// Whether `value` holds the copied data. The keys must come in the same order (what a producer of the same
// call does): another order is the same key, but is only recognised by building it.
function holds(copy: unknown, value: unknown): boolean {
  if (copy instanceof ObjectCopy) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !plainObject(value)) return false;
    const keys = Object.keys(value);
    const n = keys.length;
    if (n !== copy.keys.length) return false;
    for (let i = 0; i < n; i++) {
      const key = keys[i] as string;
      if (key !== copy.keys[i] || !holds(copy.values[i], (value as Record<string, unknown>)[key])) return false;
    }
    return true;
  }
  if (copy instanceof ArrayCopy) {
    if (!Array.isArray(value) || typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    const n = value.length;
    if (n !== copy.items.length) return false;
    for (let i = 0; i < n; i++) if (!holds(copy.items[i], value[i])) return false;
    return true;
  }
  // -0 and 0 key alike ("0"), and are ===; every other finite number is written apart.
  return copy === value;
}

/** The last key and the data it stands for. @internal */
export class KeyMemo {
  #tool: string | undefined = undefined;
  #copy: unknown = NONE;
  #key = "";

  /** The last key, when `input` for `tool` holds the same data it was built from. */
  recall(tool: string, input: object): string | undefined {
    return tool === this.#tool && this.#copy !== NONE && holds(this.#copy, input) ? this.#key : undefined;
  }

  /** Keeps `key` with a copy of `input` (nothing when the input is not small plain data). */
  remember(tool: string, input: object, key: string): void {
    this.#tool = tool;
    this.#key = key;
    this.#copy = copyOf(input, 0, { nodes: MAX_NODES });
  }
}
