import type { FunctionTool, protocol, RunContext } from "@openai/agents";
import type { ToolCallHookContext } from "@toolware/core";

/** What the SDK hands a function tool's `invoke` besides the arguments (`toolCall`, `signal`, `resumeState`). */
export type OpenAIAgentsToolDetails = NonNullable<Parameters<FunctionTool["invoke"]>[2]>;

/** The name guarded calls give `ctx.framework`. */
export const FRAMEWORK_NAME = "openai-agents";

/**
 * One tool call of a guarded agent, as `bind`, `onOutcome` and `openAIAgentsCall(ctx)` see it.
 * `TContext` is the type of the run context (`run(agent, input, { context })`).
 */
export interface OpenAIAgentsCall<TContext = unknown> {
  readonly toolName: string;
  /** The SDK's call id (`details.toolCall.callId`); undefined for a direct `tool.invoke()` without details. */
  readonly callId: string | undefined;
  /** The arguments the model sent, parsed (before any hook rewrote them). */
  readonly input: Readonly<Record<string, unknown>>;
  readonly runContext: RunContext<TContext>;
  /** `runContext.context`: what the app passed as `run(agent, input, { context })`. */
  readonly context: TContext;
  /** The model's function call item; undefined when needsApproval is asked or invoke got no details. */
  readonly toolCall: protocol.FunctionCallItem | undefined;
  readonly details: OpenAIAgentsToolDetails | undefined;
}

/**
 * The SDK call behind a hook's context, when it came through {@link guardAgent}; undefined
 * otherwise. Name the run context's type to read it typed.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => openAIAgentsCall<{ userId: string }>(ctx)?.context.userId !== "guest");
 * ```
 */
export function openAIAgentsCall<TContext = unknown>(ctx: ToolCallHookContext): OpenAIAgentsCall<TContext> | undefined {
  const framework = ctx.framework;
  return framework?.name === FRAMEWORK_NAME ? (framework.context as OpenAIAgentsCall<TContext>) : undefined;
}
