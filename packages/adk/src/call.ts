import type { BaseTool, Context } from "@google/adk";
import type { ToolCallHookContext } from "@toolware/core";

/** The name guarded calls give `ctx.framework`. */
export const FRAMEWORK_NAME = "adk";

/** One tool call of an ADK run, as `bind`, `onOutcome` and `adkCall(ctx)` see it. */
export interface AdkCall {
  readonly toolName: string;
  /** ADK's id of the model's function call (`toolContext.functionCallId`); `""` when the model gave none. */
  readonly callId: string;
  /** The arguments the model sent (before any hook rewrote them). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly tool: BaseTool;
  /** ADK's context of the call: `state`, `agentName`, `invocationContext`, `toolConfirmation`, … */
  readonly toolContext: Context;
  /** The agent whose model asked for the call (`toolContext.agentName`). */
  readonly agentName: string;
}

/**
 * The ADK call behind a hook's context, when it came through {@link toolwarePlugin} (or a tool of
 * an agent run by an `AgentTool`); undefined otherwise.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => adkCall(ctx)?.toolContext.state.get("role") !== "guest");
 * ```
 */
export function adkCall(ctx: ToolCallHookContext): AdkCall | undefined {
  const framework = ctx.framework;
  return framework?.name === FRAMEWORK_NAME ? (framework.context as AdkCall) : undefined;
}
