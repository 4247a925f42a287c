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

/**
 * The arguments a condition reads: only `keys` when the expression names its keys, else all of them. Throws when
 * they are over `budget` or cannot be copied as data.
 */
export function projectArgs(
  args: Readonly<Record<string, unknown>>,
  keys: readonly string[] | undefined,
  budget: ArgsBudget,
): Readonly<Record<string, unknown>> {
  const meter = new Meter(budget);
  if (keys === undefined) return copy(args, 0, meter) as Record<string, unknown>;
  const out: Record<string, unknown> = Object.create(null);
  for (const key of keys) {
    const v = own(args, key);
    if (v !== undefined) out[key] = copy(v, 1, meter);
  }
  return out;
}
