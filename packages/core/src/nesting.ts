import type { ToolCallHookContext } from "./context.js";
import { ToolwareError } from "./errors.js";

// How deep calls may nest (a tool that calls `invoke`, itself called by a tool…), as documented in
// docs/error-handling.md. Nested calls cost no stack; without a bound, a tool that calls itself
// would keep the microtask queue busy for ever instead of failing.
const MAX_CALL_DEPTH = 10_000;

// How many calls each nested call runs inside; a call that is in none is at depth 0.
const depths = new WeakMap<ToolCallHookContext, number>();

/** Records that `ctx` nests in `parent`; the error to reject with when that is too deep. @internal */
export function nest(ctx: ToolCallHookContext, parent: ToolCallHookContext): ToolwareError | undefined {
  const depth = (depths.get(parent) ?? 0) + 1;
  if (depth > MAX_CALL_DEPTH) {
    return new ToolwareError(
      "TOOLWARE_CALL_TOO_DEEP",
      `calls to ${ctx.toolName} nest more than ${MAX_CALL_DEPTH} deep (a tool that calls invoke() on itself without end?)`,
    );
  }
  depths.set(ctx, depth);
  return undefined;
}
