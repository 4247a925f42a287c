import { unformattableResult } from "./call-state.js";
import { formatToolResult } from "./format.js";
import { NEVER_ABORTED } from "./signals.js";
import { nativeThen, settle, type Then, thenOf } from "./thenable.js";
import type { Tool, ToolCallOutcome, TraceEntry } from "./types.js";

// A call whose chain has no hook, no input schema, no signal of its own and nobody listening to its
// events needs no context: the tool runs at once and its own `.then` builds the outcome, the same
// outcome the chain would have built. Every such outcome shares one frozen empty trace.

/** The trace of every call that ran no hook (and whose result could be formatted). @internal */
export const NO_TRACE: readonly TraceEntry[] = Object.freeze([]);

function returned<O>(tool: Tool<object, O>, toolName: string, callId: string, raw: O): ToolCallOutcome<O> {
  let result: string;
  try {
    result = formatToolResult(tool, raw);
  } catch (error) {
    const { text, entry } = unformattableResult(toolName, error);
    return { status: "error", result: text, raw, reason: undefined, error, trace: [entry], callId, toolName };
  }
  return { status: "ok", result, raw, reason: undefined, error: undefined, trace: NO_TRACE, callId, toolName };
}

function threw<O>(toolName: string, callId: string, result: string, error: unknown): ToolCallOutcome<O> {
  return { status: "error", result, raw: undefined, reason: undefined, error, trace: NO_TRACE, callId, toolName };
}

/**
 * Runs the tool of a call without hooks. `formatFailed` words a failed tool's result. Throws only
 * what `formatFailed` throws. @internal
 */
export function runBare<O>(
  tool: Tool<object, O>,
  input: object,
  callId: string,
  formatFailed: (toolName: string, error: unknown) => string,
): ToolCallOutcome<O> | Promise<ToolCallOutcome<O>> {
  const toolName = tool.name;
  const ok = (raw: unknown): ToolCallOutcome<O> => returned(tool, toolName, callId, raw as O);
  const err = (error: unknown): ToolCallOutcome<O> => threw(toolName, callId, formatFailed(toolName, error), error);
  let result: unknown;
  let then: Then | undefined;
  try {
    result = tool.execute(input, { signal: NEVER_ABORTED, callId });
    // As in a chain: a result whose inspection throws, or that the native then refuses, is the tool's failure.
    // The native promise's `then` is read here rather than by thenOf: the optimiser then knows it is the
    // native then (the value it loaded, not a merge of several) and inlines it.
    if (typeof result === "object" && result !== null) {
      const own = (result as { then?: unknown }).then;
      if (own === nativeThen) return (own as Then).call(result, ok, err) as Promise<ToolCallOutcome<O>>;
      then = typeof own === "function" ? (own as Then) : undefined;
    } else then = thenOf(result);
  } catch (error) {
    return err(error);
  }
  if (then === undefined) return ok(result);
  return settle(result as object, then, ok, err);
}
