/** True for `{}`-style objects (plain or null-prototype), the only shape a tool input may take. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Structural equality for JSON-like data; other objects compare by identity. */
export function sameData(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 64 || a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !sameData(a[k], b[k], depth + 1)) return false;
  return true;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // A plain assignment to "__proto__" would swap the prototype of the tool input.
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/**
 * Makes `target` hold `source` without replacing the object (tool inputs must be
 * mutated in place). `"replace"` also deletes keys missing from `source`;
 * `"merge"` keeps them. Values equal to the current ones are left untouched, so
 * the call's trace only reports real changes.
 */
export function writeInPlace(
  target: Record<string, unknown>,
  source: Readonly<Record<string, unknown>>,
  mode: "replace" | "merge",
): void {
  if (mode === "replace") {
    for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete target[key];
  }
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (isAccessor(target, key)) {
      // A getter could answer this check with the checked value and the tool with another: a data property
      // pins what was checked (a setter would not even keep it). Throws for a non-configurable one: the guard blocks.
      Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
      continue;
    }
    if (Object.hasOwn(target, key) && sameData(target[key], value)) continue;
    setOwn(target, key, value);
  }
}

/**
 * Whether `key` of `target` is held by a getter or setter (or cannot be inspected): a guard that
 * checks such a value cannot know the tool will read the same one, so it refuses it instead.
 *
 * @example
 * ```ts
 * isAccessor({ get path() { return "a.txt"; } }, "path"); // true
 * isAccessor({ path: "a.txt" }, "path"); // false
 * ```
 */
export function isAccessor(target: object, key: string | number): boolean {
  try {
    const d = Object.getOwnPropertyDescriptor(target, key);
    return d !== undefined && (d.get !== undefined || d.set !== undefined);
  } catch {
    return true;
  }
}
