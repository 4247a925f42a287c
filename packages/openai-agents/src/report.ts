import { messageOf, type ToolCallOutcome, toolwareCode } from "@toolware/core";

/** Why a call failed before its chain could start: the message, its cause and its code. @internal */
export function failureText(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? `: ${messageOf(error.cause)}` : "";
  return `${messageOf(error)}${cause} (${toolwareCode(error) ?? "TOOLWARE_BIND_FAILED"})`;
}

/** An outcome for a call that failed before its chain could start (bad JSON, a failing `bind`). @internal */
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
