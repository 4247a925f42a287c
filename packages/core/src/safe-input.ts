// What the listeners of a refused call see as its input: a plain copy of what was sent, never the
// value itself (a getter or a Proxy trap must not run again in a listener, nor change what it sees).

function copyOf(value: unknown): unknown {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    return json === undefined ? undefined : JSON.parse(json);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A plain object of its own standing for the arguments `value` of a call that could not start: a JSON
 * copy of an object; `{ arguments: copy }` for anything else (a string, an array, a number), with
 * `arguments` absent when nothing could be read (undefined, a revoked Proxy, a cycle). @internal
 */
export function safeInput(value: unknown): Record<string, unknown> {
  const copy = copyOf(value);
  let readable = false;
  try {
    readable = isRecord(value);
  } catch {
    // A revoked Proxy: nothing can be read.
  }
  if (readable && isRecord(copy)) return copy;
  return copy === undefined ? {} : { arguments: copy };
}
