import type { ExecuteTool, ToolCallHookContext } from "@toolware/core";

// The core hands an execution wrapper `(execute, ctx)` but not the signal the wrapper outside it chose:
// `execute(signal)` replaces the outer signal for the tool, and `ctx.signal` is the call's signal only.
// Without this, a timeout nested inside a retry would drop an outer timeout's signal, and a retry nested
// inside a timeout could not see that the timeout gave up. Wrappers from this package therefore publish
// the signal they run the tool with, keyed by call, for the time of the synchronous `execute` call: the
// core invokes the next wrapper synchronously from there, so it reads the value at its entry.
const current = new WeakMap<object, AbortSignal>();

/**
 * The signal the tool would receive if it ran now from inside the current execution wrapper:
 * the signal of the nearest enclosing toolware wrapper, else `ctx.signal`. Read it at the
 * start of a wrapper, before any `await`.
 *
 * @example
 * ```ts
 * ctx.wrapExecution((execute, ctx) => {
 *   const signal = executionSignal(ctx);
 *   return runWithSignal(ctx, execute, signal);
 * });
 * ```
 */
export function executionSignal(ctx: ToolCallHookContext): AbortSignal {
  return current.get(ctx) ?? ctx.signal;
}

/**
 * Calls `execute(signal)` and makes `signal` what {@link executionSignal} answers for the
 * wrappers inside while they start. With `forward: false` the tool keeps the signal the
 * outer wrappers chose (for wrappers that only pass the signal on, so that a foreign
 * wrapper's signal outside is not replaced).
 *
 * @example
 * ```ts
 * const result = await runWithSignal(ctx, execute, controller.signal);
 * ```
 */
export function runWithSignal(
  ctx: ToolCallHookContext,
  execute: ExecuteTool,
  signal: AbortSignal,
  forward = true,
): Promise<unknown> {
  const previous = current.get(ctx);
  current.set(ctx, signal);
  try {
    return forward ? execute(signal) : execute();
  } finally {
    if (previous === undefined) current.delete(ctx);
    else current.set(ctx, previous);
  }
}
