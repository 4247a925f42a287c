import { formatToolResult, type Tool, type ToolCallOutcome, ToolwareError } from "@toolware/core";

/** The output a blocked call's `execute` returns when the SDK could not deny it itself (ai 6). */
export interface DeniedOutput {
  readonly "@toolware/ai-sdk": "denied";
  readonly reason: string;
}

/** True for the output of a blocked call. */
export function isDeniedOutput(value: unknown): value is DeniedOutput {
  return (
    value !== null &&
    typeof value === "object" &&
    (value as Record<string, unknown>)["@toolware/ai-sdk"] === "denied" &&
    typeof (value as Record<string, unknown>).reason === "string"
  );
}

/** The SDK's value for a changed result: marks it so `toModelOutput` skips the tool's own mapping. */
export interface Mapped {
  readonly value: unknown;
  /** True when hooks changed the result: the tool's own `toModelOutput` was written for its own values. */
  readonly changed: boolean;
}

function parsed(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The one place where toolware's outcome becomes what the SDK gets:
 * - ok, no hook changed the result: the tool's own value (or a hook's `respond` value);
 * - ok, hooks changed it (redaction): the changed text, parsed back to a JSON object or array when
 *   the value was not a string and the text still is JSON, so the model gets structured output;
 * - blocked: a {@link DeniedOutput} that `toModelOutput` turns into the SDK's `execution-denied`;
 * - error: throws, so the SDK reports a `tool-error` and the model reads `error-text`.
 */
export function toSdkValue(outcome: ToolCallOutcome, tool: Tool<never, unknown>): Mapped {
  if (outcome.status === "blocked") {
    const denied: DeniedOutput = { "@toolware/ai-sdk": "denied", reason: outcome.result };
    return { value: denied, changed: false };
  }
  if (outcome.status === "error") {
    throw new ToolwareError("TOOLWARE_TOOL_FAILED", outcome.result, { cause: outcome.error });
  }
  const raw = outcome.raw;
  let own: string | undefined;
  try {
    own = formatToolResult(tool, raw);
  } catch {
    own = undefined;
  }
  if (own === outcome.result) return { value: raw, changed: false };
  if (typeof raw === "string" || raw === undefined) return { value: outcome.result, changed: true };
  return { value: parsed(outcome.result) ?? outcome.result, changed: true };
}
