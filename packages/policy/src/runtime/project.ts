import { types } from "node:util";

/** How much of a call's arguments a condition may be handed. */
export interface ArgsBudget {
  readonly maxNodes: number;
  readonly maxChars: number;
  readonly maxDepth: number;
}

class Meter {
  nodes = 0;
  chars = 0;
  constructor(readonly budget: ArgsBudget) {}
  count(chars: number): void {
    this.nodes++;
    this.chars += chars;
    if (this.nodes > this.budget.maxNodes) {
      throw new Error(`the arguments hold more than ${this.budget.maxNodes} values`);
    }
    if (this.chars > this.budget.maxChars) {
      throw new Error(`the arguments hold more than ${this.budget.maxChars} characters`);
    }
  }
}

// A copy a condition can read and nothing can change under it: plain data only, objects without a prototype
// (so `__proto__` is an ordinary key), every value counted. Anything it cannot copy faithfully throws, and the
// caller fails closed: a condition never decides on a value it did not see.
function copy(value: unknown, depth: number, meter: Meter): unknown {
  switch (typeof value) {
    case "string":
      meter.count(value.length);
      return value;
    case "number":
    case "boolean":
    case "bigint":
      meter.count(0);
      return value;
    case "undefined":
      meter.count(0);
      return null;
    case "object":
      break;
    default:
      throw new Error(`the arguments hold a ${typeof value}, which a condition cannot read`);
  }
  meter.count(0);
  if (value === null) return null;
  if (depth >= meter.budget.maxDepth) throw new Error(`the arguments nest deeper than ${meter.budget.maxDepth}`);
  if (value instanceof Date) return new Date(value.getTime());
  if (ArrayBuffer.isView(value)) {
    meter.count(value.byteLength);
    return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    const length = value.length;
    for (let i = 0; i < length; i++) out.push(copy(own(value, String(i)), depth + 1, meter));
    return out;
  }
  if (value instanceof Map) {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of value) out[String(k)] = copy(v, depth + 1, meter);
    return out;
  }
  if (value instanceof Set) return [...value].map((v) => copy(v, depth + 1, meter));
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    const v = own(value, key);
    if (v !== undefined) out[key] = copy(v, depth + 1, meter);
  }
  return out;
}

function own(from: object, key: string): unknown {
  const d = Object.getOwnPropertyDescriptor(from, key);
  if (d === undefined) return undefined;
  if (d.get !== undefined || d.set !== undefined) {
    throw new Error(`the arguments hold a getter or setter at ${JSON.stringify(key)}`);
  }
  return d.value;
}

// Whether a value is plain data a condition can read as it is, within the budget: strings, numbers, booleans,
// null, arrays and plain objects of those, with no getter, no proxy and nothing else. Counts as it goes (the
// budget throws). A value that is not plain is copied instead (its own keys only, or refused).
function plain(value: unknown, depth: number, meter: Meter): boolean {
  switch (typeof value) {
    case "string":
      meter.count(value.length);
      return true;
    case "number":
    case "boolean":
      meter.count(0);
      return true;
    case "object":
      break;
    default:
      return false;
  }
  meter.count(0);
  if (value === null) return true;
  if (depth >= meter.budget.maxDepth) throw new Error(`the arguments nest deeper than ${meter.budget.maxDepth}`);
  if (types.isProxy(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype || Object.keys(value).length !== value.length) return false;
    for (let i = 0; i < value.length; i++) {
      const e = Object.getOwnPropertyDescriptor(value, i);
      if (e === undefined || e.get !== undefined || e.set !== undefined || !plain(e.value, depth + 1, meter))
        return false;
    }
    return true;
  }
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key of Object.keys(value)) {
    const e = Object.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
    if (e.get !== undefined || e.set !== undefined || !plain(e.value, depth + 1, meter)) return false;
  }
  return true;
}

/**
 * The arguments a condition reads: only `keys` when the expression names its keys, else all of them. Plain data
 * is handed over as it is (after its size is counted); anything else is copied as data. Throws when the
 * arguments are over `budget` or cannot be read as data.
 */
export function projectArgs(
  args: Readonly<Record<string, unknown>>,
  keys: readonly string[] | undefined,
  budget: ArgsBudget,
): Readonly<Record<string, unknown>> {
  if (keys === undefined) {
    if (plain(args, 0, new Meter(budget))) return args;
    return copy(args, 0, new Meter(budget)) as Record<string, unknown>;
  }
  // The common case, read on every call: the keys the expression names hold strings, numbers or booleans (or are
  // absent). Kept small so it inlines into the condition's evaluation.
  if (scalarsOnly(args, keys, budget)) return args;
  return projectKeys(args, keys, budget);
}

function scalarsOnly(args: Readonly<Record<string, unknown>>, keys: readonly string[], budget: ArgsBudget): boolean {
  let chars = 0;
  for (let k = 0; k < keys.length; k++) {
    const d = Object.getOwnPropertyDescriptor(args, keys[k] as string);
    if (d === undefined) continue;
    const v: unknown = d.value;
    if (typeof v === "string") chars += v.length;
    else if ((typeof v !== "number" && typeof v !== "boolean") || d.get !== undefined || d.set !== undefined) {
      return false;
    }
  }
  // One value per key at most: only the characters can be over the budget (the general path says which).
  return chars <= budget.maxChars && keys.length <= budget.maxNodes;
}

function projectKeys(
  args: Readonly<Record<string, unknown>>,
  keys: readonly string[],
  budget: ArgsBudget,
): Readonly<Record<string, unknown>> {
  let asIs = true;
  // Scalars (the common case: a path, a query, a count) are counted here without a meter; the first value that
  // is not a scalar gets one, seeded with what was counted so far, so the budget is the same either way.
  let probe: Meter | undefined;
  let nodes = 0;
  let chars = 0;
  // Index loops: `keys` is frozen, which for-of walks through the generic iterator (this runs on every call).
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const d = Object.getOwnPropertyDescriptor(args, key);
    if (d === undefined) continue;
    if (d.get !== undefined || d.set !== undefined) {
      asIs = false;
      break;
    }
    const v: unknown = d.value;
    const t = typeof v;
    if (probe === undefined && (t === "string" || t === "number" || t === "boolean")) {
      nodes++;
      if (t === "string") chars += (v as string).length;
      if (nodes > budget.maxNodes) throw new Error(`the arguments hold more than ${budget.maxNodes} values`);
      if (chars > budget.maxChars) throw new Error(`the arguments hold more than ${budget.maxChars} characters`);
      continue;
    }
    if (probe === undefined) {
      probe = new Meter(budget);
      probe.nodes = nodes;
      probe.chars = chars;
    }
    if (!plain(v, 1, probe)) {
      asIs = false;
      break;
    }
  }
  // The top level may be the core's input proxy (its traps are the core's own): it is read key by key above.
  if (asIs) return args;
  const meter = new Meter(budget);
  const out: Record<string, unknown> = Object.create(null);
  for (const key of keys) {
    const v = own(args, key);
    if (v !== undefined) out[key] = copy(v, 1, meter);
  }
  return out;
}
