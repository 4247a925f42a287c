import type { ToolCallHookContext } from "./context.js";
import { messageOf, ToolwareError } from "./errors.js";
import { formatToolResult } from "./format.js";
import type { Runtime } from "./runtime.js";
import { nativeThen, settle, type Then, thenOf } from "./thenable.js";

type Ctx = ToolCallHookContext;

function toolDone(ctx: Ctx, value: unknown): void {
  if (ctx._settled) return;
  ctx.rawToolResult = value;
  try {
    ctx.toolResult = formatToolResult(ctx.tool, value);
  } catch (e) {
    formatFailed(ctx, e);
  }
}

function toolFailed(ctx: Ctx, rt: Runtime, error: unknown): void {
  if (ctx._settled) return;
  ctx.error = error;
  ctx._status = "error";
  ctx.toolResult = rt.formatFailed(ctx.toolName, error);
}

// The tool ran (its side effects happened) but its result has no text: not "Tool execution failed".
function formatFailed(ctx: Ctx, error: unknown): void {
  const detail = messageOf(error instanceof ToolwareError && error.cause !== undefined ? error.cause : error);
  ctx.error = error;
  ctx._status = "error";
  ctx.toolResult = `Tool ran but its result could not be formatted. Tool: ${ctx.toolName}. Error: ${detail}`;
  ctx._trace.push({
    hook: ctx.toolName,
    layer: "global",
    kind: "tool",
    phase: "around",
    action: "format-failed",
    reason: detail,
    error,
    durationMs: undefined,
  });
}

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
export function runToolThen<R>(rt: Runtime, ctx: Ctx, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  if (ctx._settled) return k(ctx);
  // A call cancelled before its tool starts must not start it.
  if (ctx._signal.aborted) {
    toolFailed(ctx, rt, ctx._signal.reason ?? new ToolwareError("TOOLWARE_CALL_CANCELLED", "the call was cancelled"));
    return k(ctx);
  }
  ctx._toolRan = true;
  let result: unknown;
  let then: Then | undefined;
  try {
    result =
      ctx._wrappers === undefined
        ? ctx.tool.execute(ctx._input, { signal: ctx._signal, callId: ctx.callId })
        : executeWrapped(ctx);
    // Inside the try: a result whose inspection throws (a revoked proxy) is the tool's failure, and
    // so is a "promise" that the native then refuses (it throws before subscribing, never after).
    then = thenOf(result);
    if (then === nativeThen) {
      return nativeThen.call(
        result,
        (v) => afterTool(ctx, v, k),
        (e) => afterFailure(rt, ctx, e, k),
      ) as Promise<R>;
    }
  } catch (e) {
    return afterFailure(rt, ctx, e, k);
  }
  if (then === undefined) return afterTool(ctx, result, k);
  return settle(
    result as object,
    then,
    (v) => afterTool(ctx, v, k),
    (e) => afterFailure(rt, ctx, e, k),
  );
}

// The tool returned (or its promise fulfilled): record it, then go on with `k`.
function afterTool<R>(ctx: Ctx, value: unknown, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  toolDone(ctx, value);
  return k(ctx);
}

// The tool threw (or its promise rejected): record it, then go on with `k`.
function afterFailure<R>(rt: Runtime, ctx: Ctx, error: unknown, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  toolFailed(ctx, rt, error);
  return k(ctx);
}
