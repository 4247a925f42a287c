import { failedOutcome } from "./adapter-kit.js";
import { messageOf, ToolwareTypeError, toolwareCode } from "./errors.js";
import { CallSignals } from "./signals.js";
import type { ToolHooks } from "./tool-hooks.js";
import type { ToolCallOutcome } from "./types.js";

// The rules every adapter applies the same way at its call boundary: what arguments it accepts, what
// the model reads when a call cannot start, how a thing is guarded once, how a shared signal is followed.

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "no arguments";
  if (typeof value !== "object") return `a ${typeof value}`;
  try {
    return Array.isArray(value) ? "an array" : "an object";
  } catch {
    return "a value that cannot be read"; // a revoked Proxy
  }
}

/**
 * The model's arguments for one call, as an adapter hands them to the chain: a JSON object, or
 * nothing at all. Anything else (`"hello"`, `[1, 2]`, `42`, `null`, a revoked Proxy) throws a
 * `ToolwareTypeError` with the code `TOOLWARE_INVALID_INPUT` whose message tells the model what to
 * send: the adapter ends the call with it ({@link refusedOutcome}), the tool never runs, and no
 * argument is ever rewritten to `{}`.
 *
 * @example
 * ```ts
 * const input = readArguments("send_email", toolCall.args); // inside the adapter's try
 * ```
 */
export function readArguments(toolName: string, value: unknown): Record<string, unknown> {
  let isObject: boolean;
  try {
    isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    isObject = false;
  }
  if (isObject) return value as Record<string, unknown>;
  throw new ToolwareTypeError(
    "TOOLWARE_INVALID_INPUT",
    `the arguments of ${toolName} must be a JSON object of named fields, got ${kindOf(value)}`,
  );
}

// The reasons the model can act on: it sent arguments the call could not take. Every other reason a
// call could not start is the developer's (bind, bindings, registrations) and stays out of the model's text.
const MODEL_FIXABLE: ReadonlySet<string> = new Set([
  "TOOLWARE_INVALID_INPUT",
  "TOOLWARE_INPUT_REJECTED",
  "TOOLWARE_OPENAI_INVALID_ARGUMENTS",
]);

/**
 * The outcome of a call an adapter could not start (arguments it refused, a failing `bind`, bindings
 * or registrations the core refused), with the text every adapter gives the model:
 * `Tool execution failed. Tool: <name>. Error: <reason> (<code>)`. The model reads the reason only
 * when it can fix it (its own arguments); any other reason reads "the call could not be run", and
 * the error itself (with its advice for the developer) stays in `outcome.error` and is reported to
 * the ToolHooks' `onListenerError` under `where`.
 *
 * Given `call` (the call never reached the chain: its arguments were refused, its `bind` failed), the
 * ToolHooks' listeners hear of it as of any call that failed before its tool:
 * `call:start`, `call:error`, then `call:end` with `refused: true`, with a context whose `toolInput`
 * is a plain copy of `call.input` (never the value itself; `{ arguments: … }` for a value that is
 * not an object) and whose agent, task, crew and framework come from `call.bindings` (left out when
 * they cannot be read). The audit pack writes its line from there. Never throws, whatever was thrown.
 *
 * @example
 * ```ts
 * const outcome = refusedOutcome(hooks, "my-framework", "send_email", callId, error, { input: rawArgs, bindings });
 * ```
 */
export function refusedOutcome(
  hooks: ToolHooks,
  where: string,
  toolName: string,
  callId: string,
  error: unknown,
  call?: RefusedCall,
): ToolCallOutcome {
  const code = toolwareCode(error);
  const fixable = code !== undefined && MODEL_FIXABLE.has(code);
  if (!fixable) adviseDeveloper(hooks, where, error);
  const reason = fixable ? messageOf(error) : "the call could not be run";
  const failed = failedOutcome(toolName, callId, error, code === undefined ? reason : `${reason} (${code})`);
  // Without `call`, the call may have been heard already (a "throw" hook's rejection): never twice.
  return call === undefined ? failed : announceRefused(hooks, where, failed, call);
}

/**
 * Tells the ToolHooks' listeners of a call that never reached the chain and ended with `failed` (an
 * outcome the adapter built, e.g. with `failedOutcome`): `call:start`, `call:error`, then `call:end`
 * with `refused: true`, as {@link refusedOutcome} does. Returns the outcome to hand on (`failed`'s
 * status, result, error and call id). For adapters whose text for such a call is their own. Never throws.
 *
 * @example
 * ```ts
 * const outcome = announceRefused(hooks, "my-framework", failedOutcome(name, id, error), { input: rawArgs });
 * ```
 */
export function announceRefused(
  hooks: ToolHooks,
  where: string,
  failed: ToolCallOutcome,
  call: RefusedCall,
): ToolCallOutcome {
  try {
    return hooks._refuse(call.input, call.bindings, failed);
  } catch (thrown) {
    adviseDeveloper(hooks, where, thrown);
    return failed;
  }
}

/** What an adapter knows of a call it refused, for the ToolHooks' listeners ({@link refusedOutcome}). */
export interface RefusedCall {
  /** The arguments as the model sent them (any value). */
  readonly input?: unknown;
  /** The bindings the call would have run with (`agent`, `task`, `crew`, `framework`). */
  readonly bindings?: unknown;
}

/**
 * Tells the developer, never the model: `error` goes to the ToolHooks' `onListenerError` (by
 * default `console.error`) under `where`. For advice an adapter has for the app (a tool made in a
 * way that hides its errors, a call that could not start). Never throws.
 *
 * @example
 * ```ts
 * adviseDeveloper(hooks, "openai-agents.errorFunction", new ToolwareError("TOOLWARE_OPENAI_ERROR_HIDDEN", advice));
 * ```
 */
export function adviseDeveloper(hooks: ToolHooks, where: string, error: unknown): void {
  try {
    hooks._reportListenerError(where, error);
  } catch {
    // Reporting is best effort: the call ends as it ended.
  }
}

// What each guarded thing (a tool, a tool set, an agent, a client) is guarded by: process-wide, so
// that two imports of one adapter, or two adapters, agree.
const guardedBy = new WeakMap<object, ToolHooks>();

/**
 * Marks `target` as guarded by `hooks`, once: a second guard would run the chain twice per call
 * (a limit of 1 refusing the only call, two audit lines). Throws a `ToolwareTypeError` with `code`
 * when `target` is guarded already, by any `ToolHooks`.
 *
 * @example
 * ```ts
 * claimGuard(tool, hooks, "TOOLWARE_MYFRAMEWORK_ALREADY_GUARDED", `the tool ${tool.name}`);
 * ```
 */
export function claimGuard(target: object, hooks: ToolHooks, code: `TOOLWARE_${string}`, what: string): void {
  const owner = guardedBy.get(target);
  if (owner !== undefined) {
    throw new ToolwareTypeError(
      code,
      `${what} is already guarded${owner === hooks ? "" : " by another ToolHooks"}: its calls would run two chains; guard it once`,
    );
  }
  guardedBy.set(target, hooks);
}

/**
 * The ToolHooks that guards `target` ({@link claimGuard}), if any.
 *
 * @example
 * ```ts
 * if (guardOf(handoffTarget) === hooks) return; // reached again through a cycle: guarded already
 * ```
 */
export function guardOf(target: unknown): ToolHooks | undefined {
  return typeof target === "object" && target !== null ? guardedBy.get(target) : undefined;
}

/**
 * Makes `controller` abort when `source` does, and returns the function that undoes it. Calls that
 * share one signal (the parallel calls of one step) share one listener on it, so no number of
 * them makes Node warn about a listener leak.
 *
 * @example
 * ```ts
 * const unlink = linkAbort(request.signal, call.controller);
 * try { await run(); } finally { unlink(); }
 * ```
 */
export function linkAbort(source: AbortSignal | undefined, controller: AbortController): () => void {
  if (!(source instanceof AbortSignal)) return () => {};
  const signals = new CallSignals();
  signals.followInto(source, controller);
  return () => signals.release();
}
