import type { ApprovalBinding, ToolCallHookContext } from "@toolware/core";
import type { ModelMessage } from "ai";
import type { AiSdkApprovalResponse, AiSdkCallContext } from "./types.js";

/** How the runner hears of a question handed to the user, and hands the answer back. @internal */
export interface Deferral {
  /** Called when the approval pack hands the call to the SDK's flow; returns the answer to come. */
  ask(): Promise<AiSdkApprovalAnswer>;
  /** Takes the answer found in the messages: true once, false when another call used it already. */
  take(response: AiSdkApprovalResponse): boolean;
  /** Why the call is denied without asking: the SDK runs a call no bound answer approved. */
  readonly refused?: string | undefined;
}

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
// The runner's side of each call: how `aiSdkApproval` asks the user and takes an answer once.
const deferrals = new WeakMap<object, Deferral>();

/** What the SDK's `execute`, `needsApproval` or `toolApproval` passed, as far as the adapter reads it. */
export interface SdkCallOptions {
  readonly toolCallId: string;
  readonly messages?: readonly ModelMessage[] | undefined;
  readonly abortSignal?: AbortSignal | undefined;
  readonly experimental_context?: unknown;
  readonly context?: unknown;
}

/** Builds the frozen context of one call. */
export function makeCall(
  toolName: string,
  input: unknown,
  options: SdkCallOptions,
  phase: AiSdkCallContext["phase"],
  approvalResponse: AiSdkApprovalResponse | undefined,
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
    approvalResponse,
    phase,
  };
  // Stamped before it is frozen: a brand cannot be added to a frozen object in every engine.
  new Made(call);
  return Object.freeze(call);
}

/** Lets `aiSdkApproval` hand `call` to the user and take its answer once. @internal */
export function onDeferral(call: AiSdkCallContext, deferral: Deferral): void {
  deferrals.set(call, deferral);
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
export type AiSdkApprovalAnswer =
  | { approve: boolean; reason?: string; binding?: ApprovalBinding }
  | "defer"
  | undefined;

/** The approval pack's answer for the user's response, bound to the call it answers. @internal */
export function answerOf(response: AiSdkApprovalResponse): AiSdkApprovalAnswer {
  const binding = response.binding;
  return response.approved
    ? { approve: true, binding }
    : { approve: false, reason: response.reason ?? "the user denied it in the chat", binding };
}

/**
 * Connects the approval pack to the SDK's approval flow: pass it as the pack's `external` option.
 * A call the user already answered in the SDK is approved or denied by that answer, if the answer is
 * bound to this call (same tool, same id, same arguments) and no other call used it; a call in the
 * SDK's approval phase is handed to the user (the SDK emits its approval request, the run pauses, and
 * the call's chain waits for the answer in this process, so it runs once, question and execution
 * together); any other call is asked through the ToolHooks' human-input provider as usual.
 *
 * @example
 * ```ts
 * hooks.use(approval({ tools: ["send_email"], external: aiSdkApproval }));
 * ```
 */
export function aiSdkApproval(ctx: ToolCallHookContext): AiSdkApprovalAnswer | Promise<AiSdkApprovalAnswer> {
  const call = aiSdkCall(ctx);
  if (call === undefined) return undefined;
  const deferral = deferrals.get(call);
  if (deferral?.refused !== undefined) return { approve: false, reason: deferral.refused };
  const response = call.approvalResponse;
  if (response !== undefined && deferral?.take(response) === true) return answerOf(response);
  if (call.phase !== "approval" || deferral === undefined) {
    // An answer another call used already: this one was never asked, and cannot be asked here.
    return response === undefined
      ? undefined
      : { approve: false, reason: `the approval of call ${call.toolCallId} was used already; ask again` };
  }
  return deferral.ask();
}
