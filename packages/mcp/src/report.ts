import type { ToolCallOutcome, ToolHooks } from "@toolware/core";

type Reporter = { _reportListenerError?: (where: string, error: unknown) => void };

/**
 * Runs an `onOutcome` observer: what it throws goes where the ToolHooks sends listener errors
 * (its `onListenerError`), and never changes the call's result. @internal
 */
export function notifyOutcome<C>(
  hooks: ToolHooks,
  onOutcome: ((outcome: ToolCallOutcome, call: C) => void) | undefined,
  outcome: ToolCallOutcome,
  call: C,
  where: string,
): void {
  if (onOutcome === undefined) return;
  try {
    onOutcome(outcome, call);
  } catch (error) {
    const report = (hooks as unknown as Reporter)._reportListenerError;
    if (typeof report === "function") report.call(hooks, where, error);
  }
}

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
