import { bindApproval } from "@toolware/core";
import type { Inbox, InboxApprovalOptions, InboxLabels, ResumeCall, Submitted } from "../contract.js";
import { invalidOption } from "../errors.js";

/** The options that shape a request: the gate and the resolver submit a call the same way. */
export type SubmitShape = Pick<
  InboxApprovalOptions,
  "inbox" | "caller" | "policyVersion" | "timeoutMs" | "requireRole" | "requiredApprovals" | "allowSelfApproval"
>;

/** The option names of {@link SubmitShape}. @internal */
export const SHAPE_KEYS = [
  "inbox",
  "caller",
  "policyVersion",
  "timeoutMs",
  "requireRole",
  "requiredApprovals",
  "allowSelfApproval",
];

/** Checks the options every submitter shares; returns the request deadline in ms. @internal */
export function checkShape(o: SubmitShape, what: string): number {
  const inbox: Inbox = o.inbox;
  if (inbox === null || typeof inbox !== "object" || typeof inbox.submit !== "function")
    throw invalidOption(`${what} needs \`inbox\` (createInbox())`);
  const timeoutMs = o.timeoutMs ?? 300_000;
  if (!(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= 2_000_000_000))
    throw invalidOption("`timeoutMs` must be a positive number of ms, at most 2000000000");
  return timeoutMs;
}

/** Issues, or joins, the inbox request of one call. @internal */
export function submitCall(
  o: SubmitShape,
  timeoutMs: number,
  call: ResumeCall,
  caller: string,
  labels: InboxLabels | undefined,
): Promise<Submitted> {
  return o.inbox.submit({
    toolName: call.toolName,
    callId: call.callId,
    input: call.input,
    caller: o.caller ?? caller,
    timeoutMs,
    ...(o.policyVersion === undefined ? {} : { policyVersion: o.policyVersion }),
    ...(o.requireRole === undefined ? {} : { requireRole: o.requireRole }),
    ...(o.requiredApprovals === undefined ? {} : { requiredApprovals: o.requiredApprovals }),
    ...(o.allowSelfApproval === undefined ? {} : { allowSelfApproval: o.allowSelfApproval }),
    ...(labels === undefined ? {} : { labels }),
  });
}

/** Whether the approved arguments are an approver's edit of the call's own. @internal */
export function isEdit(call: ResumeCall, approved: { readonly binding: { readonly digest: string } }): boolean {
  return bindApproval(call.toolName, call.callId, call.input).digest !== approved.binding.digest;
}
