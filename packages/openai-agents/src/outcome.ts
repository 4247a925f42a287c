import { formatToolResult, type Tool, type ToolCallOutcome } from "@toolware/core";

/** What a function tool's `invoke` resolves to: text, or the tool's own structured result. */
export type OpenAIAgentsToolOutput = string | unknown;

// A formatResult that throws means the hooks' string cannot be shown to be the tool's own.
function unchanged(tool: Tool<never, unknown>, outcome: ToolCallOutcome): boolean {
  try {
    return outcome.result === formatToolResult(tool, outcome.raw as never);
  } catch {
    return false;
  }
}

/**
 * THE mapping of a toolware outcome to what the SDK hands the model as the call's output
 * (docs/adapters.md has the table):
 * - `ok`, no hook changed the result: the tool's own value (a structured result stays structured);
 * - `ok`, hooks changed it (redaction): the hooks' string;
 * - `blocked`: `Tool execution blocked by hook. Tool: …. Reason: …`;
 * - `error`: `Tool execution failed. Tool: …. Error: …` — the real error, never the SDK's
 *   generic "An error occurred while running the tool".
 * The SDK then runs the tool's output guardrails on it as usual.
 */
export function outcomeToToolOutput(outcome: ToolCallOutcome, tool: Tool<never, unknown>): OpenAIAgentsToolOutput {
  if (outcome.status !== "ok") return outcome.result;
  return unchanged(tool, outcome) ? outcome.raw : outcome.result;
}
