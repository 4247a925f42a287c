import type { ToolCallHookContext } from "./context.js";
import { formatToolResult } from "./context.js";
import { isThenable, type Runtime } from "./run.js";

type Ctx = ToolCallHookContext;

function toolDone(ctx: Ctx, rt: Runtime, value: unknown): void {
  if (ctx._settled) return;
  ctx.rawToolResult = value;
  try {
    ctx.toolResult = formatToolResult(ctx.tool, value);
  } catch (e) {
    toolFailed(ctx, rt, e);
  }
}

function toolFailed(ctx: Ctx, rt: Runtime, error: unknown): void {
  if (ctx._settled) return;
  ctx.error = error;
  ctx._status = "error";
  ctx.toolResult = rt.formatFailed(ctx.toolName, error);
}

type Step = (signal: AbortSignal) => Promise<unknown>;

function combine(outer: AbortSignal, own: AbortSignal | undefined): AbortSignal {
  return own === undefined || own === outer ? outer : AbortSignal.any([outer, own]);
}

function executeWrapped(ctx: Ctx): Promise<unknown> {
  const wrappers = ctx._wrappers ?? [];
  let step: Step = (signal) =>
    new Promise((resolve) => resolve(ctx.tool.execute(ctx._input, { signal, callId: ctx.callId })));
  for (let i = wrappers.length - 1; i >= 0; i--) {
    const wrapper = wrappers[i] as NonNullable<typeof ctx._wrappers>[number];
    const inner = step;
    // Each wrapper learns the signal chosen outside it, and can only narrow it, never drop it.
    step = (signal) => wrapper((own) => inner(combine(signal, own)), ctx, signal);
  }
  return step(ctx._signal);
}

/**
 * Runs the tool and then `k` in the same step: a chain whose hooks are all
 * sync costs one promise hop over the tool itself, whatever the number of hooks.
 */
export function runToolThen<R>(rt: Runtime, ctx: Ctx, k: (ctx: Ctx) => R | Promise<R>): R | Promise<R> {
  const result = startTool(rt, ctx);
  if (result === undefined) return k(ctx);
  return result.then(
    (v) => {
      toolDone(ctx, rt, v);
      return k(ctx);
    },
    (e: unknown) => {
      toolFailed(ctx, rt, e);
      return k(ctx);
    },
  );
}

// Starts the tool: a promise while it runs, undefined once its outcome is recorded (sync tool, settled, failed).
function startTool(rt: Runtime, ctx: Ctx): Promise<unknown> | undefined {
  if (ctx._settled) return undefined;
  // A call cancelled before its tool starts must not start it.
  if (ctx._signal.aborted) {
    toolFailed(ctx, rt, ctx._signal.reason ?? new Error("the call was cancelled"));
    return undefined;
  }
  ctx._toolRan = true;
  let result: unknown;
  try {
    result =
      ctx._wrappers === undefined
        ? ctx.tool.execute(ctx._input, { signal: ctx._signal, callId: ctx.callId })
        : executeWrapped(ctx);
  } catch (e) {
    toolFailed(ctx, rt, e);
    return undefined;
  }
  if (isThenable(result)) return result instanceof Promise ? result : Promise.resolve(result);
  toolDone(ctx, rt, result);
  return undefined;
}
