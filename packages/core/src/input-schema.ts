import type { StandardSchemaV1 } from "@standard-schema/spec";
import { messageOf, ToolwareError } from "./errors.js";
import type { ToolInputSchema } from "./types.js";

/**
 * The input of a call did not pass its tool's `inputSchema`: the call ends with status `"error"`
 * before any hook runs, and the model reads the issues in the result so it can correct itself.
 *
 * @example
 * ```ts
 * const { error } = await hooks.invoke(weather, { city: 42 } as never);
 * if (error instanceof InputRejectedError) console.log(error.issues.map((i) => i.message));
 * ```
 */
export class InputRejectedError extends ToolwareError {
  override name = "InputRejectedError";
  readonly toolName: string;
  /** The schema's own issues, as it reported them. */
  readonly issues: readonly StandardSchemaV1.Issue[];
  constructor(toolName: string, issues: readonly StandardSchemaV1.Issue[], summary: string) {
    super("TOOLWARE_INPUT_REJECTED", `invalid input: ${summary}`);
    this.toolName = toolName;
    this.issues = issues;
  }
}

/** What validating one input gave: the value hooks and the tool get, or the error that ends the call. */
export type Checked =
  | { readonly value: object; readonly failed?: undefined }
  | { readonly failed: true; readonly error: unknown };

const MAX_ISSUES = 10;
const MAX_MESSAGE = 200;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Issue messages may quote the input: one line, no terminal escapes, for the model and for logs.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

function segmentKey(segment: unknown): unknown {
  return typeof segment === "object" && segment !== null ? (segment as { key?: unknown }).key : segment;
}

function pathText(path: unknown): string {
  if (!Array.isArray(path) || path.length === 0) return "(input)";
  let out = "";
  for (const segment of path) {
    const key = segmentKey(segment);
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && IDENTIFIER.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${typeof key === "string" ? JSON.stringify(key) : String(key)}]`;
  }
  return out;
}

function clean(text: string): string {
  const one = text.replace(UNPRINTABLE, " ").trim();
  return one.length > MAX_MESSAGE ? `${one.slice(0, MAX_MESSAGE)}…` : one;
}

// Issues come from third-party code: every field is read defensively and shown as text.
function summarize(issues: readonly unknown[]): string {
  if (issues.length === 0) return "(input): rejected by the schema without an issue";
  const shown = issues.slice(0, MAX_ISSUES).map((issue) => {
    const { message, path } = (typeof issue === "object" && issue !== null ? issue : { message: issue }) as {
      message?: unknown;
      path?: unknown;
    };
    return `${pathText(path)}: ${clean(typeof message === "string" ? message : safeMessage(message))}`;
  });
  const more = issues.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more issue${more === 1 ? "" : "s"}`);
  return shown.join("; ");
}

function schemaFailed(toolName: string, what: string, cause?: unknown): ToolwareError {
  return new ToolwareError(
    "TOOLWARE_SCHEMA_FAILED",
    `the inputSchema of tool ${toolName} ${what}`,
    cause === undefined ? undefined : { cause },
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

/** Reads a Standard Schema result, which may be anything a broken or hostile validator returns. */
export function readResult(toolName: string, result: unknown): Checked {
  try {
    if (result === null || typeof result !== "object") {
      return {
        failed: true,
        error: schemaFailed(toolName, `returned ${describe(result)} instead of { value } or { issues }`),
      };
    }
    const { issues, value } = result as { issues?: unknown; value?: unknown };
    if (issues !== undefined && issues !== null && issues !== false) {
      if (!Array.isArray(issues)) {
        return {
          failed: true,
          error: schemaFailed(toolName, `returned issues that are ${describe(issues)}, not an array`),
        };
      }
      const own = Object.freeze([...issues]) as readonly StandardSchemaV1.Issue[];
      return { failed: true, error: new InputRejectedError(toolName, own, summarize(own)) };
    }
    if (!("value" in result))
      return { failed: true, error: schemaFailed(toolName, "returned neither { value } nor { issues }") };
    if (value === null || typeof value !== "object") {
      return {
        failed: true,
        error: schemaFailed(toolName, `gave ${describe(value)} as the input; a tool's input is an object`),
      };
    }
    return { value };
  } catch (error) {
    return {
      failed: true,
      error: schemaFailed(toolName, `returned a result that cannot be read: ${safeMessage(error)}`, error),
    };
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * Runs `schema` on a call's input. Never throws, and its promise never rejects: a validator that
 * throws, rejects or returns garbage gives a `TOOLWARE_SCHEMA_FAILED` error. An async validator
 * is raced against the call's signal, so a validator that never settles can still be cancelled
 * (the error is then the signal's reason, which an aborted signal always has).
 */
export function checkInputSchema(
  schema: ToolInputSchema<unknown>,
  toolName: string,
  input: object,
  signal: AbortSignal,
): Checked | Promise<Checked> {
  let result: unknown;
  try {
    result = schema["~standard"].validate(input);
  } catch (error) {
    return { failed: true, error: schemaFailed(toolName, `threw: ${safeMessage(error)}`, error) };
  }
  let thenable: boolean;
  try {
    thenable = isThenable(result);
  } catch (error) {
    return {
      failed: true,
      error: schemaFailed(toolName, `returned a result that cannot be read: ${safeMessage(error)}`, error),
    };
  }
  if (!thenable) return readResult(toolName, result);
  const pending = result as PromiseLike<unknown>;
  return new Promise<Checked>((resolve) => {
    const onAbort = () => resolve({ failed: true, error: signal.reason });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    const done = (checked: Checked) => {
      signal.removeEventListener("abort", onAbort);
      resolve(checked);
    };
    try {
      pending.then(
        (value) => done(readResult(toolName, value)),
        (error: unknown) =>
          done({ failed: true, error: schemaFailed(toolName, `rejected: ${safeMessage(error)}`, error) }),
      );
    } catch (error) {
      done({
        failed: true,
        error: schemaFailed(toolName, `returned a thenable that threw: ${safeMessage(error)}`, error),
      });
    }
  });
}

// Whatever a validator throws, even a Proxy whose every trap throws, still yields a message.
function safeMessage(error: unknown): string {
  try {
    return messageOf(error);
  } catch {
    return "an unreadable value";
  }
}

/** Checks what `defineTool` (or a hand-made tool) gives as `inputSchema`. */
export function isStandardSchema(value: unknown): value is ToolInputSchema<unknown> {
  try {
    if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
    const props = (value as { "~standard"?: unknown })["~standard"];
    if (typeof props !== "object" || props === null) return false;
    const { version, validate } = props as { version?: unknown; validate?: unknown };
    return version === 1 && typeof validate === "function";
  } catch {
    return false;
  }
}
