import { type ToolwareErrorCode, ToolwareTypeError } from "@toolware/core";

/**
 * A {@link ToolwareTypeError} for a pack: `message` starts with the pack's own prefix
 * (`toolware/cache: …`), which the errors of the packs have always carried, so it is kept
 * as given instead of getting the core's `toolware: ` in front. The code stays a literal
 * at the call site, where the troubleshooting check finds it.
 *
 * @example
 * ```ts
 * throw packTypeError("TOOLWARE_INVALID_OPTION", "toolware/cache: `dedupe` must be a boolean");
 * ```
 */
export function packTypeError(code: ToolwareErrorCode, message: string): ToolwareTypeError {
  const error = new ToolwareTypeError(code, message);
  // V8 builds `stack` from `message` when it is first read, so the stack shows this text too.
  error.message = message;
  return error;
}

/**
 * A short description of any value for a "got …" in a message; never throws, whatever the
 * value (a revoked Proxy, an object whose `toString` throws, a symbol).
 *
 * @example
 * ```ts
 * shown(Number.NaN); // "NaN"
 * shown("1 m"); // '"1 m"'
 * shown([1]); // "an array"
 * ```
 */
export function shown(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return `${value}n`;
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
    default:
      if (value === null) return "null";
      try {
        return Array.isArray(value) ? "an array" : "an object";
      } catch {
        // Array.isArray throws for a revoked Proxy.
        return "an object";
      }
  }
}
