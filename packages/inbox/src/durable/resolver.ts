import type { InboxRequest, ResumeCall } from "../contract.js";
import { checkOptions } from "../errors.js";
import { checkShape, isEdit, SHAPE_KEYS, type SubmitShape, submitCall } from "./submit.js";

/** Options of {@link inboxResolver}: give it the same request options as the gate's `inboxApproval`. */
export type InboxResolverOptions = SubmitShape;

/** Where one paused call stands in the inbox. Looking never uses an approval: the call does, once, when it runs. */
export type InboxCallStatus =
  | {
      readonly kind: "pending";
      readonly requestId: string;
      /** The request's page: where an approver decides it. */
      readonly url: string;
      /** Signed and bound to this call: hands the decision to it when it comes again. */
      readonly resumeToken: string;
      readonly deadline: number;
    }
  | {
      readonly kind: "approved";
      readonly requestId: string;
      /** The arguments the tool will get (an approver's edit of the call's own when `edited`). */
      readonly input: unknown;
      readonly edited: boolean;
    }
  | { readonly kind: "denied"; readonly requestId: string | undefined; readonly reason: string };

/** Answers a framework's paused approvals from the inbox: {@link inboxResolver}. */
export interface InboxResolver {
  /** Issues (or joins) the call's request and says where it stands. Rejects when the inbox refuses the call. */
  status(call: ResumeCall): Promise<InboxCallStatus>;
}

function statusOf(request: InboxRequest, call: ResumeCall, url: string, resumeToken: string): InboxCallStatus {
  const requestId = request.id;
  if (request.state === "pending") return { kind: "pending", requestId, url, resumeToken, deadline: request.deadline };
  if (request.state === "approved")
    return { kind: "approved", requestId, input: request.input, edited: isEdit(call, request) };
  const reason =
    request.state === "denied"
      ? (request.decision?.reason ?? "an approver rejected it")
      : "nobody decided before the deadline";
  return { kind: "denied", requestId, reason };
}

/**
 * Looks paused calls up in the inbox, for the apps that resume a framework's own durable pause (ai 7
 * approval parts, OpenAI `RunState`, LangGraph interrupts; see `aiSdkResponses`, `resolveRunState`
 * and `langGraphResume`): a call not yet in the inbox is submitted, as the gate would.
 *
 * @example
 * ```ts
 * const resolver = inboxResolver({ inbox, caller: "mailer" });
 * const status = await resolver.status({ toolName: "send_email", callId: "call_1", input: { to: "a@example.com" } });
 * if (status.kind === "pending") console.log(`decide at ${status.url}`);
 * ```
 */
export function inboxResolver(options: InboxResolverOptions): InboxResolver {
  const o = checkOptions(options, SHAPE_KEYS, "inboxResolver()") as unknown as SubmitShape;
  const timeoutMs = checkShape(o, "inboxResolver()");
  return {
    async status(call) {
      const c = checkOptions(call, ["toolName", "callId", "input"], "status()") as unknown as ResumeCall;
      const submitted = await submitCall(o, timeoutMs, c, "agent", undefined);
      return statusOf(submitted.request, c, submitted.url, submitted.resumeToken);
    },
  };
}
