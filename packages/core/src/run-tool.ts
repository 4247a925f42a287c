import { toolReturned, toolStarted, toolThrew } from "./call-state.js";
import type { ToolCallHookContext } from "./context.js";
import { ToolwareError } from "./errors.js";
import { NEVER_ABORTED } from "./signals.js";
import { nativeThen, settle, type Then, thenOf } from "./thenable.js";

type Ctx = ToolCallHookContext;

type Step = (signal: AbortSignal) => Promise<unknown>;

function executeWrapped(ctx: Ctx): Promise<unknown> {
  const wrappers = ctx._wrappers ?? [];
  let step: Step = (signal) =>
    new Promise((resolve) => resolve(ctx.tool.execute(ctx._input, { signal, callId: ctx.callId })));
  for (let i = wrappers.length - 1; i >= 0; i--) {
    const wrapper = wrappers[i] as NonNullable<typeof ctx._wrappers>[number];
    const inner = step;
    // Each wrapper learns the signal chosen outside it, and can only narrow it, never drop it.
    step = (signal) =>
      wrapper((own) => inner(own === undefined || own === signal ? signal : ctx._either(signal, own)), ctx, signal);
  }
  return step(ctx._signal);
}

/**
 * Runs the tool and then `k` in the same step: a chain whose hooks are all
 * sync costs one promise hop over the tool itself, whatever the number of hooks.
 */
export function runToolThen<R>(ctx: Ctx, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  if (ctx._settled) return k(ctx);
  // A call cancelled before its tool starts must not start it. The shared signal of the calls
  // without one never aborts: its `aborted` getter (and the brand check inside it) is skipped.
  const signal = ctx._signal;
  if (signal !== NEVER_ABORTED && signal.aborted) {
    toolThrew(ctx, signal.reason ?? new ToolwareError("TOOLWARE_CALL_CANCELLED", "the call was cancelled"));
    return k(ctx);
  }
  toolStarted(ctx);
  let result: unknown;
  let then: Then | undefined;
  try {
    result =
      ctx._wrappers === undefined ? ctx.tool.execute(ctx._input, { signal, callId: ctx.callId }) : executeWrapped(ctx);
    // Inside the try: a result whose inspection throws (a revoked proxy) is the tool's failure, and
    // so is a "promise" that the native then refuses (it throws before subscribing, never after).
    then = thenOf(result);
    if (then === nativeThen) {
      return nativeThen.call(result, toolFulfilled.bind(k, ctx), toolRejected.bind(k, ctx)) as Promise<R>;
    }
  } catch (e) {
    return afterFailure(ctx, e, k);
  }
  if (then === undefined) return afterTool(ctx, result, k);
  return settle(result as object, then, toolFulfilled.bind(k, ctx), toolRejected.bind(k, ctx)) as Promise<R>;
}

type K = (ctx: Ctx) => unknown;

// The tool's promise settled: bound to the continuation and the call, which costs less than a closure pair.
function toolFulfilled(this: K, ctx: Ctx, value: unknown): unknown {
  toolReturned(ctx, value);
  return this(ctx);
}

function toolRejected(this: K, ctx: Ctx, error: unknown): unknown {
  toolThrew(ctx, error);
  return this(ctx);
}

// The tool returned (or its promise fulfilled): record it, then go on with `k`.
function afterTool<R>(ctx: Ctx, value: unknown, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  toolReturned(ctx, value);
  return k(ctx);
}

// The tool threw (or its promise rejected): record it, then go on with `k`.
function afterFailure<R>(ctx: Ctx, error: unknown, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  toolThrew(ctx, error);
  return k(ctx);
}
