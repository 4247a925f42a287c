import type { ToolCallHookContext } from "./context.js";
import { ToolwareError } from "./errors.js";

// How deep calls may nest (a tool that calls `invoke`, itself called by a tool…), as documented in
// docs/error-handling.md. Nested calls cost no stack; without a bound, a tool that calls itself
// would keep the microtask queue busy for ever instead of failing.
const MAX_CALL_DEPTH = 10_000;

/** The call whose chain is running synchronously right now: a call started meanwhile nests in it. @internal */
export let running: ToolCallHookContext | undefined;

/** Marks `ctx` as the call running now; returns the one to restore with {@link leave}. @internal */
export function enter(ctx: ToolCallHookContext): ToolCallHookContext | undefined {
  const outer = running;
  running = ctx;
  return outer;
}

/** @internal */
export function leave(outer: ToolCallHookContext | undefined): void {
  running = outer;
}

/** Records that `ctx` nests in `parent`; the error to reject with when that is too deep. @internal */
export function nest(ctx: ToolCallHookContext, parent: ToolCallHookContext): ToolwareError | undefined {
  const depth = parent._depth + 1;
  if (depth > MAX_CALL_DEPTH) {
    return new ToolwareError(
      "TOOLWARE_CALL_TOO_DEEP",
      `calls to ${ctx.toolName} nest more than ${MAX_CALL_DEPTH} deep (a tool that calls invoke() on itself without end?)`,
    );
  }
  ctx._depth = depth;
  return undefined;
}
