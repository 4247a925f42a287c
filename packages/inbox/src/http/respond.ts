import { toolwareCode } from "@toolware/core";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { InboxGrant, InboxRequest } from "../contract.js";
import { inboxHttpStatus } from "../errors.js";

/** A JSON error body with a stable code. @internal */
export function fail(c: Context, status: ContentfulStatusCode, code: string, message: string): Response {
  return c.json({ error: { code, message } }, status);
}

/** An inbox error as its HTTP status; anything unexpected is a 500 whose details stay in the server. @internal */
export function failWith(c: Context, error: unknown): Response {
  const status = inboxHttpStatus(error) as ContentfulStatusCode;
  const code = toolwareCode(error) ?? "TOOLWARE_INBOX_INTERNAL";
  const message = status === 500 ? "internal error" : error instanceof Error ? error.message : String(error);
  return fail(c, status, code, message);
}

/** A request as the API and the page show it: the arguments redacted by the server's rules. @internal */
export function publicRequest(r: InboxRequest, show: (value: unknown) => unknown): Record<string, unknown> {
  return {
    id: r.id,
    state: r.state,
    toolName: r.binding.toolName,
    callId: r.binding.callId,
    digest: r.binding.digest,
    input: show(r.input),
    caller: r.caller,
    policyVersion: r.policyVersion,
    prompt: r.prompt,
    labels: r.labels,
    schema: r.schema,
    createdAt: r.createdAt,
    deadline: r.deadline,
    requireRole: r.requireRole,
    requiredApprovals: r.requiredApprovals,
    votes: r.votes,
    decision:
      r.decision === undefined
        ? undefined
        : {
            outcome: r.decision.outcome,
            approvers: r.decision.approvers,
            reason: r.decision.reason,
            at: r.decision.at,
            grantId: r.decision.grantId,
            editedTo: r.decision.editedTo,
          },
    editedFrom: r.editedFrom,
  };
}

/** A grant as the API shows it. @internal */
export function publicGrant(g: InboxGrant): Record<string, unknown> {
  return { ...g };
}
