/**
 * Tool arguments as Cedar values, deterministically and failing closed: whatever Cedar cannot represent exactly
 * is refused (the call is denied), never approximated, since an approximation could slip past a `forbid`.
 *
 * - strings (well-formed UTF-16) → String; booleans → Bool
 * - integers within ±2^63 → Long (`-0` → `0`); other finite numbers with at most 4 decimals → `decimal`;
 *   anything else (NaN, ±Infinity, more decimals, beyond Long or decimal) → refused
 * - bigints within ±(2^53 − 1) → Long, beyond → refused
 * - arrays → Set; plain objects (own enumerable string keys, `__proto__` and `constructor` are ordinary keys) → Record
 * - a key holding `null` or `undefined` is absent (Cedar has no null); `null`/`undefined` in an array → refused
 * - the keys `__entity`, `__extn`, `__expr` → refused (Cedar's JSON would read them as entities or extension values)
 * - functions, symbols, class instances (Date, Map, Buffer, …), cycles → refused
 * - more than {@link LIMITS}`.depth` levels, `.values` values or `.chars` characters of strings → refused
 */
export const LIMITS = { depth: 32, values: 10_000, chars: 262_144 } as const;

/** Cedar's JSON value form: what `statefulIsAuthorized` takes as context. */
export type CedarValue = boolean | number | string | CedarValue[] | { [key: string]: CedarValue };

// With the `u` flag a surrogate pair is one code point, so this finds only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const RESERVED = new Set(["__entity", "__extn", "__expr"]);
const LONG = 2 ** 63;
const DECIMAL_MAX = 922_337_203_685_477;

/** Why an argument cannot be a Cedar value; carries the key path. */
export class Refused extends Error {}

interface Budget {
  values: number;
  chars: number;
}

function isPlainRecord(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function show(path: string): string {
  return path === "" ? "the arguments" : `argument \`${path.length > 80 ? `${path.slice(0, 80)}…` : path}\``;
}

function fromNumber(n: number, path: string): CedarValue {
  if (Number.isInteger(n) && n > -LONG && n < LONG) return n === 0 ? 0 : n;
  const text = String(n);
  if (Number.isFinite(n) && /^-?\d+\.\d{1,4}$/.test(text) && Math.abs(n) <= DECIMAL_MAX) {
    return { __extn: { fn: "decimal", arg: text } } as unknown as CedarValue;
  }
  throw new Refused(`${show(path)} is ${text}, which Cedar cannot represent exactly (Long, or decimal with 4 places)`);
}

function convert(value: unknown, path: string, depth: number, budget: Budget): CedarValue {
  if (++budget.values > LIMITS.values) throw new Refused(`the arguments hold more than ${LIMITS.values} values`);
  switch (typeof value) {
    case "string":
      budget.chars += value.length;
      if (budget.chars > LIMITS.chars) throw new Refused(`the arguments hold more than ${LIMITS.chars} characters`);
      if (LONE_SURROGATE.test(value)) throw new Refused(`${show(path)} is not well-formed Unicode (a lone surrogate)`);
      return value;
    case "boolean":
      return value;
    case "number":
      return fromNumber(value, path);
    case "bigint":
      if (value >= -Number.MAX_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) return Number(value);
      throw new Refused(`${show(path)} is a bigint beyond ±2^53`);
    case "object":
      if (value === null) break;
      if (depth >= LIMITS.depth) throw new Refused(`${show(path)} nests deeper than ${LIMITS.depth} levels`);
      if (Array.isArray(value)) return fromArray(value, path, depth, budget);
      if (isPlainRecord(value)) return fromRecord(value as Record<string, unknown>, undefined, path, depth, budget);
      throw new Refused(`${show(path)} is a ${Object.prototype.toString.call(value).slice(8, -1)}, not plain data`);
  }
  throw new Refused(`${show(path)} is ${value === null ? "null" : typeof value}, which Cedar cannot represent`);
}

function fromArray(array: readonly unknown[], path: string, depth: number, budget: Budget): CedarValue {
  const length = array.length;
  if (length > LIMITS.values - budget.values) throw new Refused(`the arguments hold more than ${LIMITS.values} values`);
  const out: CedarValue[] = [];
  for (let i = 0; i < length; i++) {
    const item = array[i];
    if (item === null || item === undefined)
      throw new Refused(`${show(`${path}[${i}]`)} is ${item}, which a Cedar set cannot hold`);
    out.push(convert(item, `${path}[${i}]`, depth + 1, budget));
  }
  return out;
}

function fromRecord(
  record: Record<string, unknown>,
  only: ReadonlySet<string> | undefined,
  path: string,
  depth: number,
  budget: Budget,
): CedarValue {
  // A record without a prototype: `__proto__` is then an own key like any other, never the prototype.
  const out = Object.create(null) as Record<string, CedarValue>;
  for (const key of Object.keys(record)) {
    if (only !== undefined && !only.has(key)) continue;
    const at = path === "" ? key : `${path}.${key}`;
    if (RESERVED.has(key)) throw new Refused(`${show(at)}: the key \`${key}\` is reserved by Cedar's JSON`);
    const item = record[key];
    if (item === null || item === undefined) continue;
    out[key] = convert(item, at, depth + 1, budget);
  }
  return out;
}

/**
 * The request's context: the arguments' record, keeping only `only` when given (the attributes the policies read).
 * Throws {@link Refused}, or whatever a hostile getter or proxy throws.
 */
export function contextOf(args: unknown, only: ReadonlySet<string> | undefined): Record<string, CedarValue> {
  if (args === undefined || args === null) return {};
  if (typeof args !== "object" || Array.isArray(args) || !isPlainRecord(args)) {
    throw new Refused("the arguments are not a record of named values");
  }
  return fromRecord(args as Record<string, unknown>, only, "", 0, { values: 0, chars: 0 }) as Record<
    string,
    CedarValue
  >;
}
