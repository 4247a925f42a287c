import { formatToolResult, type Tool, type ToolCallOutcome } from "@toolware/core";

// A formatResult that throws means the hooks' string cannot be shown to be the tool's own.
function unchanged(tool: Tool<never, unknown>, outcome: ToolCallOutcome): boolean {
  try {
    return outcome.result === formatToolResult(tool, outcome.raw as never);
  } catch {
    return false;
  }
}

/**
 * What the model reads for a call, when it is not the tool's own value: the hooks' string for a
 * block (`Tool execution blocked by hook. Tool: …. Reason: …`), an error, or a result a hook
 * changed (redaction); undefined when the tool's own value stands. @internal
 */
export function replacementOf(outcome: ToolCallOutcome, tool: Tool<never, unknown>): string | undefined {
  if (outcome.status !== "ok") return outcome.result;
  return unchanged(tool, outcome) ? undefined : outcome.result;
}

/** The output of a call that ends in `beforeToolCall` (`{ proceed: false, output }`). @internal */
export function outputOf(outcome: ToolCallOutcome, tool: Tool<never, unknown>): unknown {
  return replacementOf(outcome, tool) ?? outcome.raw;
}
