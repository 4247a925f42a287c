import { bindApproval, digestArguments } from "@toolware/core";
import type { ModelMessage } from "ai";
import type { AiSdkApprovalResponse } from "./types.js";

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

function digestOf(input: unknown): string | undefined {
  try {
    return digestArguments(input);
  } catch {
    return undefined;
  }
}

/** The call an approval is looked up for. */
export interface CallToAnswer {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/**
 * The user's answer to the SDK's approval request for this very call, if the messages hold one: a
 * `tool-approval-request` for the call id whose tool call (the latest `tool-call` part with that id
 * before it) names the same tool with arguments of the same digest, answered by a
 * `tool-approval-response`, and not spent (no result for the id after the answer). Ids repeat across
 * turns with several providers: an answer to another tool or other arguments under the same id
 * answers nothing here.
 */
export function findApprovalResponse(
  messages: readonly ModelMessage[] | undefined,
  call: CallToAnswer,
): AiSdkApprovalResponse | undefined {
  if (!Array.isArray(messages)) return undefined;
  const { toolCallId, toolName } = call;
  // Most conversations hold no approval at all: nothing is digested until a request for this id shows up.
  let wanted: string | undefined | null = null;
  let latest: { toolName: unknown; input: unknown } | undefined;
  const bound = new Set<string>();
  let found: AiSdkApprovalResponse | undefined;
  for (const message of messages) {
    const content = record(message)?.content;
    if (!Array.isArray(content)) continue;
    for (const item of content) {
      const part = record(item);
      if (part === undefined) continue;
      const type = part.type;
      if (type === "tool-call" && part.toolCallId === toolCallId) {
        latest = { toolName: part.toolName, input: part.input };
      } else if (type === "tool-approval-request" && part.toolCallId === toolCallId) {
        if (typeof part.approvalId !== "string" || latest === undefined || latest.toolName !== toolName) continue;
        if (wanted === null) wanted = digestOf(call.input);
        if (wanted !== undefined && digestOf(latest.input) === wanted) bound.add(part.approvalId);
      } else if (type === "tool-approval-response") {
        if (typeof part.approvalId !== "string" || !bound.has(part.approvalId)) continue;
        // The last answer given for this call counts.
        found = {
          approvalId: part.approvalId,
          approved: part.approved === true,
          reason: typeof part.reason === "string" ? part.reason : undefined,
          binding: bindApproval(toolName, toolCallId, call.input),
        };
      } else if ((type === "tool-result" || type === "tool-error") && part.toolCallId === toolCallId) {
        // The answered call has run (or was denied): its approval is spent.
        found = undefined;
        bound.clear();
      }
    }
  }
  return found;
}

/**
 * Whether the SDK is resuming answered approvals for this call id: the last message is the user's
 * answers, one of them to a request for the id. The SDK then runs the call unless the approval
 * phase denies it, so a question asked now could never be shown: it is a denial instead.
 */
export function resumingAnswer(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  const last = record(messages[messages.length - 1]);
  if (last?.role !== "tool" || !Array.isArray(last.content)) return false;
  const answered = new Set<unknown>();
  for (const item of last.content) {
    const part = record(item);
    if (part?.type === "tool-approval-response") answered.add(part.approvalId);
  }
  if (answered.size === 0) return false;
  for (const message of messages) {
    const content = record(message)?.content;
    if (!Array.isArray(content)) continue;
    for (const item of content) {
      const part = record(item);
      if (part?.type === "tool-approval-request" && part.toolCallId === toolCallId && answered.has(part.approvalId)) {
        return true;
      }
    }
  }
  return false;
}

/** Why a resumed call whose answer is not bound to it is denied. @internal */
export const UNBOUND = (toolName: string, toolCallId: string): string =>
  `the approval in the messages does not answer this call of ${toolName} (call ${toolCallId}: another tool or other arguments, or used already); ask again`;
