import type { ToolCallHookContext, ToolInput } from "@toolware/core";
import { canonicalJson } from "../internal/canonical-json.js";

// The cache key of a call is computed on every call, hit or miss: for the inputs models send (plain objects
// of strings, numbers, booleans and null, a few levels deep) it is written directly, into one string,
// without the general encoder's checks for values JSON cannot represent. Anything else (toJSON, a class
// instance, a bigint, NaN, undefined, a cycle) goes to canonicalJson, which gives the same string for what
// both handle.

const MAX_DEPTH = 32;
// Returned when the fast writer meets something only canonicalJson may decide.
const SLOW = null;
// What JSON.stringify escapes in a string: quote, backslash, control characters, and (well-formed
// JSON.stringify) lone surrogates; a surrogate pair matches too and merely takes the slow way.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what must be found
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

// JSON.stringify(s) for a string. Calling it costs ~50 ns even for one letter; most keys and values need
// no escape, so they are quoted as they are. A short string is scanned by hand, a longer one by the RegExp.
function quote(s: string): string {
  if (s.length <= 16) {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
    }
    return `"${s}"`;
  }
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

function writeValue(value: unknown, depth: number): string | null {
  switch (typeof value) {
    case "string":
      return quote(value);
    case "number":
      return Number.isFinite(value) ? JSON.stringify(value) : SLOW;
    case "boolean":
      return value ? "true" : "false";
    case "object":
      return value === null ? "null" : writeObject(value, depth);
    default:
      return SLOW;
  }
}

function writeObject(obj: object, depth: number): string | null {
  if (depth >= MAX_DEPTH) return SLOW;
  if (typeof (obj as { toJSON?: unknown }).toJSON === "function") return SLOW;
  if (Array.isArray(obj)) {
    let out = "[";
    for (let i = 0; i < obj.length; i++) {
      const item = writeValue(obj[i], depth + 1);
      if (item === SLOW) return SLOW;
      out += i === 0 ? item : `,${item}`;
    }
    return `${out}]`;
  }
  const proto = Object.getPrototypeOf(obj);
  if (proto !== Object.prototype && proto !== null) return SLOW;
  const keys = Object.keys(obj);
  if (keys.length > 1) keys.sort();
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = writeValue((obj as Record<string, unknown>)[key], depth + 1);
    if (item === SLOW) return SLOW;
    out += `${i === 0 ? "" : ","}${quote(key)}:${item}`;
  }
  return `${out}}`;
}

/** The canonical JSON of a key input: the same string as `canonicalJson(value)`, faster for plain data. */
export function keyJson(value: unknown): string {
  return writeValue(value, 0) ?? canonicalJson(value);
}

/**
 * The call's current input, for a key that only reads it. `ctx.toolInput` is a proxy that tracks writes
 * (for the trace's `modified-input`), and reading a key through it costs more than the rest of a cache hit
 * (an `Object.keys` through a proxy alone is ~0.3 µs). Hooks write through that proxy to the same object,
 * which the core keeps as the context's `_input` (the packs ship with the core they were built with), so
 * that object is read directly; `ctx.toolInput` is the fallback should it ever be missing. @internal
 */
export function readInput(ctx: ToolCallHookContext): ToolInput {
  const raw = (ctx as unknown as { readonly _input?: unknown })._input;
  return raw !== null && typeof raw === "object" ? (raw as ToolInput) : ctx.toolInput;
}
