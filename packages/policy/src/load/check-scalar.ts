import { closestKey } from "@toolware/core";
import { MAX_DURATION_MS, MAX_STRING, type Spec } from "./spec-types.js";
import type { Scalar } from "./tree.js";

type Result = { readonly value: unknown } | { readonly message: string; readonly hint?: string };

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,15}(?:\.\d{1,6})?)(ms|s|m|h|d)$/;
// Spellings people write for a duration that say what they mean: the hint gives the one that is read.
const LOOSE_DURATION =
  /^\s*(\d{1,15}(?:\.\d{1,6})?)\s*(ms|msec|millis|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*$/i;

const show = (v: Scalar): string =>
  typeof v === "string" ? JSON.stringify(v.length > 64 ? `${v.slice(0, 64)}…` : v) : String(v);

/** What a value of the spec is, for "must be …" messages. */
export function expected(spec: Spec): string {
  if (spec.noun !== undefined) return spec.noun;
  switch (spec.kind) {
    case "string":
      return spec.enum !== undefined ? `one of ${spec.enum.join(", ")}` : "a string";
    case "number": {
      const what = spec.integer === true ? "a whole number" : "a number";
      if (spec.minimum !== undefined && spec.maximum !== undefined)
        return `${what} from ${spec.minimum} to ${spec.maximum}`;
      if (spec.minimum !== undefined) return `${what} ≥ ${spec.minimum}`;
      return what;
    }
    case "boolean":
      return "true or false";
    case "const":
      return String(spec.value);
    case "duration":
      return 'a duration such as "500ms", "90s", "5m", "1h", or milliseconds';
    case "array":
      return "a list";
    case "object":
      return "a map";
    case "record":
      return `a map of ${spec.keyNoun}s`;
    case "choice":
      return spec.options.map(expected).join(" or ");
  }
}

function looseDuration(text: string): string | undefined {
  const m = LOOSE_DURATION.exec(text);
  if (m === null) return undefined;
  const unit = (m[2] as string).toLowerCase();
  const short = unit.startsWith("ms") || unit.startsWith("milli") ? "ms" : unit.startsWith("mi") ? "m" : unit[0];
  return `${m[1]}${short}`;
}

function duration(value: Scalar, allowZero: boolean): Result {
  let ms: number;
  if (typeof value === "number") ms = value;
  else if (typeof value === "string") {
    const m = DURATION.exec(value);
    if (m === null) {
      const hint = looseDuration(value);
      const message = `must be a duration such as "500ms", "90s", "5m", "1h", or milliseconds, got ${show(value)}`;
      return hint === undefined || hint === value ? { message } : { message, hint };
    }
    ms = Number(m[1]) * (UNIT_MS[m[2] as string] as number);
  } else return { message: `must be a duration such as "90s" or "5m", got ${show(value)}` };
  if (!Number.isFinite(ms) || ms < 0 || (ms === 0 && !allowZero)) {
    return { message: `must be a ${allowZero ? "" : "positive "}duration, got ${show(value)}` };
  }
  if (ms > MAX_DURATION_MS) {
    return {
      message: `must be at most ${MAX_DURATION_MS} ms (about 24.8 days, the longest timer), got ${show(value)}`,
    };
  }
  return { value: ms };
}

function string(value: string, spec: Spec & { kind: "string" }): Result {
  if (spec.enum !== undefined) {
    if (spec.enum.includes(value)) return { value };
    const hint = closestKey(value, spec.enum);
    const message = `must be one of ${spec.enum.join(", ")}, got ${show(value)}`;
    return hint === undefined ? { message } : { message, hint };
  }
  if (value.length < (spec.minLength ?? 0)) return { message: "must not be empty" };
  const max = spec.maxLength ?? MAX_STRING;
  if (value.length > max) return { message: `must be at most ${max} characters long, got ${value.length}` };
  if (spec.pattern !== undefined && !spec.pattern.test(value)) {
    return { message: `${spec.patternMessage ?? `must match ${spec.patternText}`}, got ${show(value)}` };
  }
  return { value };
}

function number(value: number, spec: Spec & { kind: "number" }): Result {
  const bad = { message: `must be ${expected(spec)}, got ${show(value)}` };
  if (!Number.isFinite(value)) return bad;
  if (spec.integer === true && !Number.isSafeInteger(value)) return bad;
  if (spec.minimum !== undefined && value < spec.minimum) return bad;
  if (spec.maximum !== undefined && value > spec.maximum) return bad;
  return { value };
}

/** Checks one scalar against a scalar spec: the value to keep (durations in milliseconds), or what is wrong. */
export function checkScalar(value: Scalar, spec: Spec): Result {
  if (spec.kind === "duration") return duration(value, spec.allowZero === true);
  if (spec.kind === "string" && typeof value === "string") return string(value, spec);
  if (spec.kind === "number" && typeof value === "number") return number(value, spec);
  if ((spec.kind === "boolean" && typeof value === "boolean") || (spec.kind === "const" && value === spec.value)) {
    return { value };
  }
  const message = `must be ${expected(spec)}, got ${value === null ? "nothing (null)" : `${typeof value} ${show(value)}`}`;
  if (spec.kind === "boolean" && typeof value === "string" && /^(?:yes|no|on|off|y|n|true|false)$/i.test(value)) {
    return {
      message: `${message}; YAML 1.2 reads yes, no, on and off as strings`,
      hint: /^(?:yes|on|y|true)$/i.test(value) ? "true" : "false",
    };
  }
  if (spec.kind === "number" && typeof value === "string" && /^-?\d+(?:\.\d+)?$/.test(value.trim())) {
    return { message: `${message} (a number is written without quotes)`, hint: value.trim() };
  }
  if (spec.kind === "string" && spec.enum !== undefined && (typeof value === "boolean" || typeof value === "number")) {
    const hint = closestKey(String(value), spec.enum);
    return hint === undefined ? { message } : { message, hint };
  }
  return { message };
}
