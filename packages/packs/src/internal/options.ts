import { packTypeError, shown } from "./errors.js";
import { isPlainObject } from "./in-place.js";

/** What {@link checkKeys} says about an unknown key. */
export interface KeyCheck {
  /** The word in the message: `unknown option` (default), `unknown \`maxPreview\` part`. */
  readonly what?: string;
  /** Names other libraries use for an option, pointing at ours: `{ windowMs: "per" }`. */
  readonly aliases?: Readonly<Record<string, string>>;
  /** Where the object sits, shown before the key: `ms.` gives ``unknown option `ms.defualt` ``. */
  readonly at?: string;
  /**
   * `false`: always list the known keys, never guess. retry and timeout have listed them since they
   * were written, and their tests and users' log searches pin that text.
   */
  readonly suggest?: boolean;
}

/**
 * Refuses anything but a plain object (`{}` or null-prototype) as the options of a pack:
 * an array, a Map or a class instance would otherwise pass with every option at its default.
 *
 * @example
 * ```ts
 * checkOptionsObject(options, "toolware/analytics: analytics() takes an options object");
 * ```
 */
export function checkOptionsObject(options: unknown, usage: string): void {
  let plain = false;
  try {
    plain = isPlainObject(options);
  } catch {
    // A Proxy whose getPrototypeOf trap throws is no options object.
  }
  if (!plain) throw packTypeError("TOOLWARE_INVALID_OPTION", `${usage}, got ${shown(options)}`);
}

/**
 * A plain copy of an options object, each own property read exactly once, so a getter or a Proxy trap
 * cannot pass the checks with one value and hand the pack another (a `max` that reads 3, then NaN,
 * would switch a rate limit off). A getter or trap that throws becomes a `TOOLWARE_INVALID_OPTION`
 * naming the option. Anything that is no plain object comes back as given, for the caller's own check
 * to refuse with its usage message.
 *
 * @example
 * ```ts
 * options = ownOptions(options, "toolware/cache");
 * ```
 */
export function ownOptions<T>(options: T, prefix: string): T {
  let plain = false;
  try {
    plain = isPlainObject(options);
  } catch {
    // A throwing getPrototypeOf trap: checkOptionsObject refuses it with its message.
  }
  if (!plain) return options;
  const source = options as Record<string, unknown>;
  let keys: string[];
  try {
    keys = Object.getOwnPropertyNames(source);
  } catch (error) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${prefix}: the options' keys could not be listed (${reason(error)}); pass a plain object`,
    );
  }
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    let value: unknown;
    let enumerable: boolean;
    try {
      value = source[key];
      enumerable = Object.prototype.propertyIsEnumerable.call(source, key);
    } catch (error) {
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${prefix}: reading the option \`${label(key)}\` threw (${reason(error)}); pass plain values, not getters`,
      );
    }
    if (typeof value === "object" && value !== null) {
      try {
        // A Proxy whose traps throw (or a revoked one) would throw a foreign error from deep inside the checks.
        Object.getPrototypeOf(value);
        Reflect.ownKeys(value);
      } catch (error) {
        throw packTypeError(
          "TOOLWARE_INVALID_OPTION",
          `${prefix}: the option \`${label(key)}\` cannot be inspected (${reason(error)}); pass plain data, not a Proxy whose traps throw`,
        );
      }
    }
    // defineProperty: an own "__proto__" key stays a key (checkKeys then names it) instead of a prototype.
    // Enumerability is kept: checkKeys lists keys as Object.keys does, so a hidden tag some helper left on the
    // object is no unknown option, while a hidden known option is still read (once) and checked.
    Object.defineProperty(copy, key, { value, enumerable, writable: true, configurable: true });
  }
  return copy as T;
}

// What a thrown value says, never throwing itself.
function reason(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : String(error);
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  } catch {
    return "an unprintable value";
  }
}

/**
 * Throws for the first key of `options` that is not in `known`, with a "did you mean" hint
 * (an alias, a different case, or a near miss) or, failing that, the list of known keys.
 *
 * @example
 * ```ts
 * checkKeys({ ttL: "1m" }, ["tools", "ttl"], "toolware/cache");
 * // TypeError: toolware/cache: unknown option `ttL` (did you mean `ttl`?)
 * ```
 */
export function checkKeys(options: object, known: readonly string[], prefix: string, check: KeyCheck = {}): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const alias = check.aliases !== undefined && Object.hasOwn(check.aliases, key) ? check.aliases[key] : undefined;
    const guess = alias ?? (check.suggest === false ? undefined : closest(key, known));
    const hint = guess === undefined ? ` (expected one of: ${known.join(", ")})` : ` (did you mean \`${guess}\`?)`;
    throw packTypeError(
      "TOOLWARE_UNKNOWN_OPTION",
      `${prefix}: ${check.what ?? "unknown option"} \`${check.at ?? ""}${label(key)}\`${hint}`,
    );
  }
}

// Odd keys (spaces, control characters, a whole sentence) are quoted and cut, so the message stays one line.
function label(key: string): string {
  return /^[\w$]{1,64}$/.test(key) ? key : JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}

/**
 * The known key a typo most likely meant: the same word in another case, else the nearest one
 * within two edits (a swap of neighbours is one) that is less than half the typo's length away.
 *
 * @example
 * ```ts
 * closest("maxRepeat", ["maxRepeats", "maxInWindow"]); // "maxRepeats"
 * closest("colour", ["tools"]); // undefined
 * ```
 */
export function closest(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const sameWord = known.find((k) => k.toLowerCase() === lower);
  if (sameWord !== undefined) return sameWord;
  if (key.length > 64) return undefined;
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.ceil(key.length / 2) - 1);
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d <= bestDistance && (best === undefined || d < bestDistance)) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = d;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** Throws unless `value` is `undefined` or a function. */
export function checkFunction(value: unknown, name: string, prefix: string, shape = ""): void {
  if (value !== undefined && typeof value !== "function") {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${prefix}: \`${name}\` must be a function${shape}, got ${shown(value)}`,
    );
  }
}

/** Throws unless `value` is `undefined`, `true` or `false`. */
export function checkBoolean(value: unknown, name: string, prefix: string): void {
  if (value !== undefined && typeof value !== "boolean") {
    throw packTypeError("TOOLWARE_INVALID_OPTION", `${prefix}: \`${name}\` must be a boolean, got ${shown(value)}`);
  }
}

/** Throws unless `value` is `undefined` or a finite number (a chain position). */
export function checkPriority(value: unknown, prefix: string): void {
  if (value !== undefined && !Number.isFinite(value)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${prefix}: \`priority\` must be a finite number, got ${shown(value)}`,
    );
  }
}

/** Throws unless `value` is `undefined`, a non-empty string or a function (a block message). */
export function checkMessage(value: unknown, prefix: string): void {
  if (value !== undefined && typeof value !== "function" && (typeof value !== "string" || value.trim() === "")) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${prefix}: \`message\` must be a string or a function, got ${value === "" ? "an empty string" : shown(value)}`,
    );
  }
}

/**
 * The longest delay `setTimeout` honours: a longer one fires after 1 ms, so an option that arms a timer
 * refuses larger values rather than time out at once.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * The clock a guard counts with: the given `now`, checked at every reading. A clock answering NaN,
 * Infinity or a non-number would put every call outside (or inside) every window, switching a rate
 * limit, a loop guard or a circuit off; a bad reading throws instead, and the guard's hook blocks.
 *
 * @example
 * ```ts
 * const clock = guardClock(options.now, "toolware/rate-limit");
 * ```
 */
export function guardClock(now: (() => number) | undefined, prefix: string): () => number {
  if (now === undefined) return Date.now;
  return () => {
    const t: unknown = now();
    if (typeof t !== "number" || !Number.isFinite(t)) {
      throw packTypeError(
        "TOOLWARE_INVALID_RETURN",
        `${prefix}: \`now\` returned ${shown(t)}, not a finite number of milliseconds`,
      );
    }
    return t;
  };
}
