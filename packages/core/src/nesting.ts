import type { ToolCallHookContext } from "./context.js";
import { ToolwareError } from "./errors.js";

// How deep calls may nest (a tool that calls `invoke`, itself called by a tool…), as documented in
// docs/error-handling.md. Nested calls cost no stack; without a bound, a tool that calls itself
// would keep the microtask queue busy for ever instead of failing.
const MAX_CALL_DEPTH = 10_000;

// How many calls each nested call runs inside; a call that is in none is at depth 0.
const depths = new WeakMap<ToolCallHookContext, number>();
// The depth of the nested call being started, until its context claims it.
let pending = 0;

/** The depth of a call started inside `parent`. @internal */
export function depthBelow(parent: ToolCallHookContext): number {
  return (depths.get(parent) ?? 0) + 1;
}

/** The error to reject a call nested `depth` deep with, when that is too deep. @internal */
export function depthError(toolName: string, depth: number): ToolwareError | undefined {
  if (depth <= MAX_CALL_DEPTH) return undefined;
  return new ToolwareError(
    "TOOLWARE_CALL_TOO_DEEP",
    `calls to ${toolName} nest more than ${MAX_CALL_DEPTH} deep (a tool that calls invoke() on itself without end?)`,
  );
}

/** Runs `start`, whose call's context then {@link claimDepth | claims} `depth`. @internal */
export function startNested<T>(depth: number, start: () => T): T {
  pending = depth;
  try {
    return start();
  } finally {
    pending = 0;
  }
}

/**
 * Starts a call made while `parent` (a context, or the depth of a call without one) runs
 * synchronously: one microtask later, on a fresh stack, one level deeper. @internal
 */
export function startNestedCall<T>(
  parent: ToolCallHookContext | number,
  toolName: string,
  start: () => Promise<T>,
): Promise<T> {
  const depth = typeof parent === "number" ? parent + 1 : depthBelow(parent);
  const tooDeep = depthError(toolName, depth);
  if (tooDeep !== undefined) return Promise.reject(tooDeep);
  return Promise.resolve().then(() => startNested(depth, start));
}

/** Gives a new call's context the depth it was started at (0 unless nested). @internal */
export function claimDepth(ctx: ToolCallHookContext): void {
  if (pending === 0) return;
  depths.set(ctx, pending);
  pending = 0;
}

/** The depth a new call without a context was started at (0 unless nested). @internal */
export function claimPending(): number {
  const depth = pending;
  pending = 0;
  return depth;
}
