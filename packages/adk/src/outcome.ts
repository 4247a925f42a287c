import { formatToolResult, type Tool, type ToolCallOutcome } from "@toolware/core";

/** What ADK hands the model as a call's `functionResponse.response`: always an object. */
export type AdkToolResponse = Record<string, unknown>;

// A formatResult that throws means the hooks' string cannot be shown to be the tool's own.
function unchanged(tool: Tool<never, unknown>, outcome: ToolCallOutcome): boolean {
  try {
    return outcome.result === formatToolResult(tool, outcome.raw as never);
  } catch {
    return false;
  }
}

function asResponse(value: unknown): AdkToolResponse {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as AdkToolResponse;
  // ADK's own shapes for a value that is not an object.
  return Array.isArray(value) ? { results: value } : { result: value };
}

// The hooks' text of an object result (a redaction keeps it JSON) stays an object for the model.
function parsedText(text: string): AdkToolResponse {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as AdkToolResponse;
  } catch {
    // Not JSON: the text itself.
  }
  return { result: text };
}

/**
 * Whether the hooks left the tool's own result as it was: ADK then keeps its own value and the
 * plugins and agent callbacks after toolware's see it untouched. @internal
 */
export function keptAsIs(outcome: ToolCallOutcome, tool: Tool<never, unknown>): boolean {
  return outcome.status === "ok" && unchanged(tool, outcome);
}

/**
 * THE mapping of a toolware outcome to the function response ADK hands the model:
 * - `ok`, no hook changed the result: the tool's own value (`{ result: v }` for a value that is not an object);
 * - `ok`, hooks changed it (redaction): the hooks' text, parsed back to an object when it is a JSON object;
 * - `blocked`: `{ error: "Tool execution blocked by hook. Tool: …. Reason: …" }`;
 * - `error`: `{ error: "Tool execution failed. Tool: …. Error: …" }`.
 *
 * @example
 * ```ts
 * outcomeToResponse(await hooks.invoke(tool, input), tool); // { error: "Tool execution blocked by hook. …" }
 * ```
 */
export function outcomeToResponse(outcome: ToolCallOutcome, tool: Tool<never, unknown>): AdkToolResponse {
  if (outcome.status !== "ok") return { error: outcome.result };
  return unchanged(tool, outcome) ? asResponse(outcome.raw) : parsedText(outcome.result);
}
