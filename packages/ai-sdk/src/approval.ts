import { ToolwareTypeError } from "@toolware/core";
import { runnerOf } from "./guard.js";
import { resumingAnswer, UNBOUND } from "./history.js";

/** An ai 7 approval status (`ToolApprovalStatus`), written without importing ai 7's types. */
export type AiSdkToolApprovalStatus =
  | undefined
  | "not-applicable"
  | "approved"
  | "denied"
  | "user-approval"
  | { type: "not-applicable"; reason?: never }
  | { type: "approved"; reason?: string }
  | { type: "denied"; reason?: string }
  | { type: "user-approval"; reason?: string };

/** What ai 7 passes to a `toolApproval` function, as far as the adapter reads it. */
export interface AiSdkToolApprovalRequest {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  readonly messages: readonly unknown[];
  readonly toolsContext?: unknown;
}

function typeOf(status: AiSdkToolApprovalStatus): string {
  if (status === undefined) return "not-applicable";
  return typeof status === "string" ? status : status.type;
}

/**
 * ai 7's `toolApproval` for a set made by `guardTools`: the chain runs when the SDK asks for
 * approval, so a blocked call becomes the SDK's automatic denial with the reason (the tool never
 * runs), and the approval pack (with `external: aiSdkApproval`) can ask the user through the SDK.
 * `own`, your own approval function, is asked first: its "denied" or "user-approval" stands.
 *
 * @example
 * ```ts
 * const tools = guardTools(hooks, { sendEmail });
 * await generateText({ model, tools, toolApproval: toolApproval(tools), prompt: "…" });
 * ```
 */
export function toolApproval<R extends AiSdkToolApprovalRequest = AiSdkToolApprovalRequest>(
  tools: object,
  own?: (request: R) => AiSdkToolApprovalStatus | PromiseLike<AiSdkToolApprovalStatus>,
): (request: R) => Promise<AiSdkToolApprovalStatus> {
  if (tools === null || typeof tools !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "toolApproval(tools) needs the set guardTools returned");
  }
  if (own !== undefined && typeof own !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "toolApproval(tools, own?): `own` must be a function");
  }
  const set = tools as Record<string, unknown>;
  return async (request) => {
    const status = own === undefined ? undefined : await own(request);
    const kind = typeOf(status);
    if (kind === "denied" || kind === "user-approval") return status;
    const { toolCallId, toolName, input } = request.toolCall;
    const runner = Object.hasOwn(set, toolName) ? runnerOf(set[toolName]) : undefined;
    if (runner === undefined) return status;
    const contexts = request.toolsContext as Record<string, unknown> | undefined;
    const context = contexts !== null && typeof contexts === "object" ? contexts[toolName] : undefined;
    const early = await runner.early(input, {
      toolCallId,
      messages: request.messages as never,
      context,
    });
    if (early.kind === "deferred") {
      if (!resumingAnswer(request.messages as never, toolCallId)) return { type: "user-approval" };
      // The SDK runs a resumed call unless this phase denies it: no answer here was bound to this call.
      const reason = UNBOUND(toolName, toolCallId);
      runner.withdraw(toolCallId, reason);
      return { type: "denied", reason };
    }
    if (early.kind === "blocked") {
      runner.forget(toolCallId);
      return { type: "denied", reason: early.outcome.result };
    }
    return status;
  };
}
