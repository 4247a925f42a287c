import { messageOf, ToolwareTypeError } from "./errors.js";

/** Keys other libraries use for what toolware spells differently: key → what to say. */
export type KeyHints = Readonly<Record<string, string>>;

function distance(a: string, b: string): number {
  // Optimal string alignment (Levenshtein plus swapped neighbours, "crwe" → "crew" is one edit).
  // Keys are short and this runs only on the error path.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The allowed key a misspelt one most likely meant, if any is close enough to say so: the same word in another case
 * style (`expected_output` for `expectedOutput`), else the nearest within one edit (keys of up to 4 characters) or
 * two (a swap of neighbours is one edit). What toolware's own "did you mean" hints use; exported for packages that
 * check keys of their own (policy files).
 *
 * @example
 * ```ts
 * closestKey("defualt", ["default", "rules"]); // "default"
 * closestKey("colour", ["tools"]); // undefined
 * ```
 */
export function closestKey(key: string, allowed: readonly string[]): string | undefined {
  const lower = key.toLowerCase().replace(/[_-]/g, "");
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of allowed) {
    // `expected_output` and `ExpectedOutput` are the same key in another case style.
    if (candidate.toLowerCase() === lower) return candidate;
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const tolerance = key.length <= 4 ? 1 : 2;
  return bestDistance <= tolerance ? best : undefined;
}

/** A key as messages show it: in backticks when it is a plain word, else quoted (a hostile key stays one line). */
export function showKey(key: string): string {
  return /^[\w$-]{1,64}$/.test(key) ? `\`${key}\`` : JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

/** The message of an unknown key: a known hint, else "did you mean …?", else the allowed keys. */
export function unknownKeyMessage(what: string, key: string, allowed: readonly string[], hints: KeyHints = {}): string {
  const hint = Object.hasOwn(hints, key) ? hints[key] : undefined;
  if (hint !== undefined) return `unknown ${what} ${showKey(key)}: ${hint}`;
  const close = closestKey(key, allowed);
  const guess = close === undefined ? "" : `did you mean \`${close}\`? `;
  return `unknown ${what} ${showKey(key)} (${guess}expected one of: ${allowed.join(", ")})`;
}

/** Throws TOOLWARE_UNKNOWN_OPTION for the first own enumerable string key that `allowed` does not list. */
export function checkKeys(value: object, allowed: readonly string[], what: string, hints?: KeyHints): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new ToolwareTypeError("TOOLWARE_UNKNOWN_OPTION", unknownKeyMessage(what, key, allowed, hints));
    }
  }
}

/** True for `{ … }` and `Object.create(null)`: what toolware accepts where it asks for an object. Never throws. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  // A Proxy whose getPrototypeOf trap throws (or a revoked one) is not a plain object: callers
  // refuse it with their own coded error instead of rejecting with the trap's.
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(value);
  } catch {
    return false;
  }
  return proto === Object.prototype || proto === null;
}

/** Names a value for an error message, without ever throwing (hostile Proxies included). */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value === "function" ? "a function" : typeof value;
  try {
    if (Array.isArray(value)) return "an array";
    const proto = Object.getPrototypeOf(value);
    if (proto === null || proto === Object.prototype) return "an object";
    const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
    if (ctor === Object) return "an object with a custom prototype (Object.create(…))";
    const name = ctor?.name;
    if (typeof name === "string" && name !== "") return /^[AEIO]/.test(name) ? `an ${name}` : `a ${name}`;
    return "an object with a custom prototype";
  } catch {
    return "an object that cannot be inspected";
  }
}

/**
 * True when a name is more than blanks and separators: it has a letter, a digit or a symbol
 * (an emoji) in any script. Spaces, punctuation ("_", "-", "."), invisible format characters
 * and control characters alone are refused.
 */
export function hasNameCharacter(name: string): boolean {
  return /[\p{L}\p{N}\p{S}]/u.test(name);
}

/** A value as messages show it: primitives as written, objects by their kind. Never throws. */
export function showValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "symbol") return "a symbol";
  if (value === null || typeof value === "object" || typeof value === "function") return describeValue(value);
  return String(value);
}

/**
 * The longest delay `setTimeout` honours: a longer one fires after 1 ms, so a timeout option above it
 * would time everything out at once. Options that arm a timer refuse larger values. @internal
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * The known keys of `value`, each read once (undefined ones left out), so a getter cannot pass a check
 * with one value and hand the caller another; a getter that throws is a `TOOLWARE_INVALID_OPTION`
 * naming the key (`the ${what} \`key\` could not be read`).
 */
export function readOnce(value: object, keys: readonly string[], what: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    let v: unknown;
    try {
      v = (value as Record<string, unknown>)[key];
    } catch (error) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `the ${what} \`${key}\` could not be read: ${messageOf(error)}`,
        {
          cause: error,
        },
      );
    }
    if (v !== undefined) out[key] = v;
  }
  return out;
}
