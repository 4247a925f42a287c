import type { ToolCallHookContext } from "@toolware/core";
import type { ModelMessage } from "ai";
import type { AiSdkApprovalResponse, AiSdkCallContext } from "./types.js";

/** The `framework.name` this adapter gives its calls. */
export const FRAMEWORK = "ai-sdk";

// Contexts this adapter made carry a private brand: `aiSdkCall` answers only for those, so no other
// code can pose as the SDK. A class field stamped on the plain object (the constructor returns it)
// rather than a WeakSet: a WeakSet entry per call costs ~1 µs and more for the GC with every entry
// waiting to be collected, a brand costs one property; the context stays a plain frozen object.
class Returns {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the brand is stamped on the object passed in
    return target;
  }
}
class Made extends Returns {
  #made = true;
  static has(value: object): boolean {
    return #made in value;
  }
}
// Set by `aiSdkApproval` when it hands a call to the SDK's approval flow; read by the approval phase.
const deferrals = new WeakMap<object, () => void>();

/** What the SDK's `execute`, `needsApproval` or `toolApproval` passed, as far as the adapter reads it. */
export interface SdkCallOptions {
  readonly toolCallId: string;
  readonly messages?: readonly ModelMessage[] | undefined;
  readonly abortSignal?: AbortSignal | undefined;
  readonly experimental_context?: unknown;
  readonly context?: unknown;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/**
 * The user's answer to the SDK's approval request for `toolCallId`, if the messages hold one: an
 * assistant `tool-approval-request` naming the call and a tool `tool-approval-response` with its id.
 */
export function findApprovalResponse(
  messages: readonly ModelMessage[] | undefined,
  toolCallId: string,
): AiSdkApprovalResponse | undefined {
  if (!Array.isArray(messages)) return undefined;
  // Most conversations hold no approval at all: the set and the list exist only once one shows up.
  let requested: Set<string> | undefined;
  let responses: AiSdkApprovalResponse[] | undefined;
  for (const message of messages) {
    const content = record(message)?.content;
    if (!Array.isArray(content)) continue;
    for (const item of content) {
      const part = record(item);
      if (part === undefined || typeof part.approvalId !== "string") continue;
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId) {
        requested ??= new Set();
        requested.add(part.approvalId);
      } else if (part.type === "tool-approval-response") {
        responses ??= [];
        responses.push({
          approvalId: part.approvalId,
          approved: part.approved === true,
          reason: typeof part.reason === "string" ? part.reason : undefined,
        });
      }
    }
  }
  if (requested === undefined || responses === undefined) return undefined;
  // The last answer given for this call counts.
  for (let i = responses.length - 1; i >= 0; i--) {
    const response = responses[i] as AiSdkApprovalResponse;
    if (requested.has(response.approvalId)) return response;
  }
  return undefined;
}

/** Builds the frozen context of one call. */
export function makeCall(
  toolName: string,
  input: unknown,
  options: SdkCallOptions,
  phase: AiSdkCallContext["phase"],
): AiSdkCallContext {
  const messages = Array.isArray(options.messages) ? options.messages : [];
  const call: AiSdkCallContext = {
    toolName,
    toolCallId: options.toolCallId,
    input,
    messages,
    abortSignal: options.abortSignal instanceof AbortSignal ? options.abortSignal : undefined,
    experimentalContext: options.experimental_context,
    toolContext: options.context,
    approvalResponse: findApprovalResponse(messages, options.toolCallId),
    phase,
  };
  // Stamped before it is frozen: a brand cannot be added to a frozen object in every engine.
  new Made(call);
  return Object.freeze(call);
}

/** Lets `aiSdkApproval` tell the approval phase of `call` that the user is to be asked. @internal */
export function onDeferral(call: AiSdkCallContext, listener: () => void): void {
  deferrals.set(call, listener);
}

/**
 * The AI SDK's own context of the call a hook is running for, or undefined when the call did not
 * come through `guardTools`.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => {
 *   const call = aiSdkCall(ctx);
 *   if (call !== undefined && call.messages.length > 40) ctx.block("conversation too long");
 * });
 * ```
 */
export function aiSdkCall(ctx: ToolCallHookContext): AiSdkCallContext | undefined {
  const framework = ctx.framework;
  if (framework === undefined || framework.name !== FRAMEWORK) return undefined;
  const context = framework.context;
  return context !== null && typeof context === "object" && Made.has(context)
    ? (context as AiSdkCallContext)
    : undefined;
}

/** The approval pack's answer for a call that went through the SDK's approval flow. */
export type AiSdkApprovalAnswer = { approve: boolean; reason?: string } | "defer" | undefined;

/**
 * Connects the approval pack to the SDK's approval flow: pass it as the pack's `external` option.
 * A call the user already answered in the SDK is approved or denied by that answer; a call in the
 * SDK's approval phase is handed to the user ("defer": the SDK emits its approval request and the
 * run pauses); any other call is asked through the ToolHooks' human-input provider as usual.
 *
 * @example
 * ```ts
 * hooks.use(approval({ tools: ["send_email"], external: aiSdkApproval }));
 * ```
 */
export function aiSdkApproval(ctx: ToolCallHookContext): AiSdkApprovalAnswer {
  const call = aiSdkCall(ctx);
  if (call === undefined) return undefined;
  const response = call.approvalResponse;
  if (response !== undefined) {
    return response.approved
      ? { approve: true }
      : { approve: false, reason: response.reason ?? "the user denied it in the chat" };
  }
  if (call.phase !== "approval") return undefined;
  deferrals.get(call)?.();
  return "defer";
}
