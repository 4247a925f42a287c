import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import { type Command, isCommand, isGraphBubbleUp } from "@langchain/langgraph";
import type { ToolCallOutcome } from "@toolware/core";

/** What a LangChain tool call resolves to inside `wrapToolCall`. */
export type ToolCallResult = ToolMessage | Command;

/** Formats what hooks read as the result: a message's text, or its content blocks as JSON. @internal */
export function textOfResult(raw: unknown): string {
  if (ToolMessage.isInstance(raw)) {
    return typeof raw.content === "string" ? raw.content : (JSON.stringify(raw.content) ?? "");
  }
  if (isCommand(raw)) return JSON.stringify({ command: { goto: raw.goto, graph: raw.graph ?? null } });
  if (typeof raw === "string") return raw;
  return JSON.stringify(raw) ?? String(raw);
}

// textOfResult is every adapted tool's formatResult: a hook changed the result when the strings differ.
/** @internal */
export function unchanged(outcome: ToolCallOutcome): boolean {
  try {
    return outcome.result === textOfResult(outcome.raw);
  } catch {
    return false;
  }
}

/**
 * True for LangGraph's own control flow (an `interrupt()`, a `Command.PARENT`). Any other thrown
 * value, however hostile (`null`, a Symbol, a revoked Proxy, a throwing getter), is not. @internal
 */
export function isBubbleUp(value: unknown): boolean {
  try {
    return typeof value === "object" && value !== null && isGraphBubbleUp(value);
  } catch {
    return false;
  }
}

/**
 * LangGraph's own control flow raised by the tool itself, which must leave the middleware as it
 * came. @internal
 */
export function bubbleUpOf(outcome: ToolCallOutcome): unknown {
  return outcome.status === "error" && isBubbleUp(outcome.error) ? outcome.error : undefined;
}

/**
 * THE mapping of a toolware outcome to LangChain's native channel (docs/adapters.md has the table):
 * - `ok`, no hook changed the result: the tool's own `ToolMessage` (artifact and metadata kept) or `Command`;
 * - `ok`, hooks changed it (redaction) or gave another call's value (a cache): a new `ToolMessage`
 *   with the hooks' string, no artifact (it would still carry what they removed);
 * - `blocked` and `error`: a `ToolMessage` with `status: "error"` and toolware's agent-facing text,
 *   which names the reason, for the same `tool_call_id`.
 *
 * @example
 * ```ts
 * const message = outcomeToToolMessage(outcome, request.toolCall);
 * ```
 */
export function outcomeToToolMessage(outcome: ToolCallOutcome, toolCall: ToolCall): ToolCallResult {
  const id = toolCall.id ?? outcome.callId;
  if (outcome.status === "ok" && unchanged(outcome)) {
    const raw = outcome.raw;
    if (ToolMessage.isInstance(raw) && raw.tool_call_id === id) return raw;
    if (isCommand(raw)) return raw;
  }
  return new ToolMessage({
    content: outcome.result,
    tool_call_id: id,
    name: toolCall.name,
    status: outcome.status === "ok" ? "success" : "error",
  });
}
