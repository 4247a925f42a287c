import type { ToolCallOutcome } from "@toolware/core";

/** An outcome for a call that failed before its chain could start (a failing `bind`). @internal */
export function failedOutcome(toolName: string, callId: string, error: unknown, message: string): ToolCallOutcome {
  return {
    status: "error",
    result: `Tool execution failed. Tool: ${toolName}. Error: ${message}`,
    raw: undefined,
    error,
    trace: [],
    callId,
    toolName,
  };
}
