import { type ToolwareErrorCode, ToolwareTypeError } from "@toolware/core";

/**
 * A {@link ToolwareTypeError} whose message keeps the pack's own prefix (`toolware/guardrails: …`)
 * instead of getting the core's `toolware: ` in front.
 */
export function packOptionError(code: ToolwareErrorCode, message: string): ToolwareTypeError {
  const error = new ToolwareTypeError(code, message);
  error.message = message;
  return error;
}

/** A short description of any value for a message; never throws (cycles, BigInts, throwing getters, Proxies). */
export function describe(value: unknown): string {
  try {
    if (value === null) return "null";
    if (typeof value === "string") return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    if (typeof value === "bigint") return `${value}n`;
    if (typeof value !== "object") return typeof value === "function" ? "a function" : String(value);
    if (Array.isArray(value)) return "an array";
    const json = JSON.stringify(value);
    return json === undefined || json.length > 80 ? "an object" : json;
  } catch {
    return "an object";
  }
}
