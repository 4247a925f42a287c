// Hooks rewrite ctx.toolInput in place: the SDK's own copy (shown in its step content) stays as the model
// sent it. The model's input is JSON, so a copy of plain objects, arrays and primitives covers nearly every
// call; structuredClone (about 0.7 µs even for `{ query }`) takes the rest.

const MAX_DEPTH = 64;
// Returned by the fast copy for anything it does not copy exactly as structuredClone would.
const OTHER = Symbol("other");

function plainCopy(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") {
    // structuredClone refuses these: the slow path decides (and keeps the input as it is).
    return typeof value === "function" || typeof value === "symbol" ? OTHER : value;
  }
  // Deeper than JSON from a model goes, or a cycle: structuredClone handles it.
  if (depth > MAX_DEPTH) return OTHER;
  if (Array.isArray(value)) {
    // Holes and extra keys are kept by structuredClone, not by an index loop.
    if (Object.keys(value).length !== value.length) return OTHER;
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = plainCopy(value[i], depth + 1);
      if (item === OTHER) return OTHER;
      out[i] = item;
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return OTHER;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = plainCopy((value as Record<string, unknown>)[key], depth + 1);
    if (item === OTHER) return OTHER;
    // A key named __proto__ must stay data, as structuredClone keeps it.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/** A deep copy of a tool call's input, or the input itself when it cannot be cloned. @internal */
export function copyOf(input: unknown): unknown {
  try {
    const copy = plainCopy(input, 0);
    if (copy !== OTHER) return copy;
    return structuredClone(input);
  } catch {
    return input;
  }
}
