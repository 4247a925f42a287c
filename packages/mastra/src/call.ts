import type { ToolCallHookContext } from "@toolware/core";

/** The name guarded calls give `ctx.framework`. */
export const FRAMEWORK_NAME = "mastra";

/**
 * What Mastra hands a tool hook as `context` (the tool's execution options), as far as the
 * adapter reads it. Every field may be missing: a hook is a function anyone can call.
 */
export interface MastraToolContext {
  readonly toolCallId?: string;
  readonly abortSignal?: AbortSignal;
  readonly requestContext?: unknown;
  readonly messages?: readonly unknown[];
  /** Suspends the run; with `requireToolApproval` the run waits for `approveToolCall` / `declineToolCall`. */
  readonly suspend?: (payload: unknown, options?: Record<string, unknown>) => Promise<unknown>;
  readonly [key: string]: unknown;
}

/** One tool call of a guarded Mastra agent, as `bind`, `onOutcome` and `mastraCall(ctx)` see it. */
export interface MastraCall {
  /** The name the model called (Mastra's key of the tool). */
  readonly toolName: string;
  /** Mastra's call id (`context.toolCallId`); undefined when the hook was called without one. */
  readonly callId: string | undefined;
  /** The arguments the model sent (before any hook rewrote them). */
  readonly input: Readonly<Record<string, unknown>>;
  /** Mastra's execution options of the call (`toolCallId`, `abortSignal`, `requestContext`, `suspend`, …). */
  readonly context: MastraToolContext;
  /** What Mastra says of the caller (`agentId`, `agentName`). */
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The Mastra call behind a hook's context, when it came through {@link mastraToolware}'s hooks;
 * undefined otherwise.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => mastraCall(ctx)?.metadata?.agentId !== "intern");
 * ```
 */
export function mastraCall(ctx: ToolCallHookContext): MastraCall | undefined {
  const framework = ctx.framework;
  return framework?.name === FRAMEWORK_NAME ? (framework.context as MastraCall) : undefined;
}

/** Reads one field of a value Mastra (or anyone) passed, without letting a getter or a Proxy throw. @internal */
export function field(value: unknown, key: string): unknown {
  try {
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/** Mastra's call id, when it is a non-empty string. @internal */
export function callIdOf(context: unknown): string | undefined {
  const id = field(context, "toolCallId");
  return typeof id === "string" && id !== "" ? id : undefined;
}
