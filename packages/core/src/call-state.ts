import type { ToolCallHookContext } from "./context.js";
import { messageOf, ToolwareError } from "./errors.js";
import { formatToolResult } from "./format.js";
import type { ToolCallOutcome, TraceEntry } from "./types.js";

// Every write of a call's status, result and error happens here, so the rules of who may settle
// a call sit in one place:
// - once the outcome is built, a late block() or respond() of an abandoned hook changes nothing;
// - block() and respond() settle the call: nothing further inside runs, and a tool result that
//   comes in later no longer counts;
// - on the way out, a failing hook withholds the result but never hides an earlier block or a
//   failed tool.
// Internal: the package index exports none of these; hooks settle a call with ctx.block() and
// ctx.respond(), which call the first two.

type Ctx = ToolCallHookContext;

/** Blocks the call: nothing inside runs, nor the tool; its result is withheld. @internal */
export function blockCall<I extends object, O>(ctx: ToolCallHookContext<I, O>, reason: string | undefined): void {
  if (ctx._finished) return;
  ctx._status = "blocked";
  ctx._reason = reason;
  ctx._settled = true;
  ctx._decisions++;
  ctx.toolResult = ctx._services.formatBlocked(ctx.toolName, reason);
  ctx.rawToolResult = undefined;
}

/** Settles the call with `value` as the tool's result; throws, changing nothing, when it cannot be formatted. @internal */
export function respondCall<I extends object, O>(ctx: ToolCallHookContext<I, O>, value: O): void {
  if (ctx._finished) return;
  // Format first: a value that cannot be formatted must leave the call as it was.
  const text = formatToolResult(ctx.tool, value);
  ctx.rawToolResult = value;
  ctx.toolResult = text;
  ctx._status = "ok";
  ctx._reason = undefined;
  ctx._settled = true;
  ctx._decisions++;
}

/** The tool starts: from now on `wrapExecution()` is too late. @internal */
export function toolStarted(ctx: Ctx): void {
  ctx._toolRan = true;
}

/** The tool returned `value`: it becomes the result, unless a hook settled the call meanwhile. @internal */
export function toolReturned(ctx: Ctx, value: unknown): void {
  if (ctx._settled) return;
  ctx.rawToolResult = value;
  try {
    ctx.toolResult = formatToolResult(ctx.tool, value);
  } catch (e) {
    unformattable(ctx, e);
  }
}

/** What a call whose tool ran but whose result has no text says: its result and its trace entry. @internal */
export function unformattableResult(toolName: string, error: unknown): { text: string; entry: TraceEntry } {
  const detail = messageOf(error instanceof ToolwareError && error.cause !== undefined ? error.cause : error);
  return {
    text: `Tool ran but its result could not be formatted. Tool: ${toolName}. Error: ${detail}`,
    entry: {
      hook: toolName,
      layer: "global",
      kind: "tool",
      phase: "around",
      action: "format-failed",
      reason: detail,
      error,
      durationMs: undefined,
    },
  };
}

// The tool ran (its side effects happened) but its result has no text: not "Tool execution failed".
function unformattable(ctx: Ctx, error: unknown): void {
  const { text, entry } = unformattableResult(ctx.toolName, error);
  ctx.error = error;
  ctx._status = "error";
  ctx.toolResult = text;
  ctx._trace.push(entry);
}

/** The tool threw, or the call was cancelled before it started; unless a hook settled the call meanwhile. @internal */
export function toolThrew(ctx: Ctx, error: unknown): void {
  if (ctx._settled) return;
  ctx.error = error;
  ctx._status = "error";
  ctx.toolResult = ctx._services.formatFailed(ctx.toolName, error);
}

/**
 * The call fails before its tool could run (the input failed the tool's schema, a middleware
 * returned without calling next()): it ends as a failed tool would, and nothing inside runs. @internal
 */
export function failBeforeTool(ctx: Ctx, error: unknown): void {
  ctx.error = error;
  ctx._status = "error";
  ctx._settled = true;
  ctx.toolResult = ctx._services.formatFailed(ctx.toolName, error);
}

/**
 * A hook with the "block" policy failed; `reason` names it. Before the tool, the call is blocked
 * and `error` becomes the outcome's. On the way out: an earlier block keeps its own reason (nothing
 * new is withheld); a failed tool keeps its error but its message is withheld too, as the failing
 * hook may have been the one meant to clean it; an ok result is withheld and the call ends blocked.
 * @internal
 */
export function blockForFailure(ctx: Ctx, phase: "before" | "after", reason: string, error: unknown): void {
  if (phase === "before") {
    blockCall(ctx, reason);
    ctx._failure = error;
    return;
  }
  if (ctx._status === "blocked") return;
  const failedTool = ctx._status === "error";
  blockCall(ctx, reason);
  ctx.toolResult = ctx._services.formatWithheld(ctx.toolName, reason);
  if (failedTool) ctx._status = "error";
  else ctx._failure = error;
}

/** An after-hook returned a string: it becomes the agent-facing result. @internal */
export function replaceResult(ctx: Ctx, text: string): void {
  ctx.toolResult = text;
}

/** Builds the call's outcome and {@link finishCall | finishes} it. @internal */
export function closeCall<I extends object, O>(ctx: ToolCallHookContext<I, O>): ToolCallOutcome<O> {
  const status = ctx._status;
  const outcome: ToolCallOutcome<O> = {
    status,
    result: ctx.toolResult ?? "",
    raw: ctx.rawToolResult,
    reason: status === "blocked" ? ctx._reason : undefined,
    error: status === "error" ? ctx.error : ctx._failure,
    trace: ctx._trace,
    callId: ctx.callId,
    toolName: ctx.toolName,
  };
  finishCall(ctx);
  return outcome;
}

/** The outcome is built: nothing changes the call any more, and its signal links are released. @internal */
export function finishCall<I extends object, O>(ctx: ToolCallHookContext<I, O>): void {
  ctx._finished = true;
  ctx._signals?.release();
}
