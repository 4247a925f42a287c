import { bindApproval, messageOf, type ToolCallHookContext } from "@toolware/core";
import type { ApprovalAnswer, ApprovalDecision, ApprovalOptions, ExternalApproval } from "@toolware/packs/approval";
import type { Inbox, InboxApprovalOptions, InboxRequest, PendingApproval, Settled } from "./contract.js";
import { checkOptions, invalidOption } from "./errors.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** Set when the inbox deferred this call: where to decide it and how to resume it. */
    inboxPending?: PendingApproval;
  }
}

const KEYS = [
  "inbox",
  "mode",
  "caller",
  "policyVersion",
  "timeoutMs",
  "requireRole",
  "requiredApprovals",
  "allowSelfApproval",
  "heartbeatMs",
  "onHeartbeat",
];

/** What {@link inboxApproval} returns: spread it into the approval pack's options. */
export type InboxApprovalParts = Required<Pick<ApprovalOptions, "external" | "editMode" | "timeoutMs" | "message">>;

function answerOf(settled: Settled, first: InboxRequest, ctx: ToolCallHookContext, taken: boolean): ApprovalAnswer {
  const binding = bindApproval(ctx.toolName, ctx.callId, ctx.toolInput);
  if (settled.outcome !== "approved") {
    const reason =
      settled.outcome === "expired"
        ? "nobody decided before the deadline"
        : (settled.reason ?? "an approver rejected it");
    return { approve: false, reason, binding };
  }
  // An approval runs its call once: a second call with the same id and arguments finds it used.
  if (!taken)
    return { approve: false, reason: `the approval of request ${settled.request.id} was used already`, binding };
  const edited = settled.request.id !== first.id;
  return edited
    ? { approve: true, input: settled.input as Record<string, unknown>, binding }
    : { approve: true, binding };
}

/**
 * The approval pack's `external`, answered by the inbox: `mode: "wait"` submits the call and waits
 * for the decision (heartbeats; the deadline denies; the call's signal cancels); `mode: "defer"`
 * ends the call at once as pending (its URL and resume token in `ctx.state.inboxPending`), and
 * applies the decision, once, when the same call (tool, id, arguments) comes again.
 *
 * @example
 * ```ts
 * hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "wait", caller: "mailer" }) }));
 * ```
 */
export function inboxApproval(options: InboxApprovalOptions): InboxApprovalParts {
  const o = checkOptions(options, KEYS, "inboxApproval()") as unknown as InboxApprovalOptions;
  const inbox: Inbox = o.inbox;
  if (inbox === null || typeof inbox !== "object" || typeof inbox.submit !== "function")
    throw invalidOption("inboxApproval() needs `inbox` (createInbox())");
  if (o.mode !== "wait" && o.mode !== "defer") throw invalidOption('inboxApproval() needs `mode`: "wait" or "defer"');
  const timeoutMs = o.timeoutMs ?? 300_000;
  if (!(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= 2_000_000_000))
    throw invalidOption("`timeoutMs` must be a positive number of ms, at most 2000000000");
  const pending = new Map<string, PendingApproval>();

  async function external(ctx: ToolCallHookContext): Promise<ExternalApproval> {
    const submitted = await inbox.submit({
      toolName: ctx.toolName,
      callId: ctx.callId,
      input: ctx.toolInput,
      caller: o.caller ?? ctx.agent?.role ?? "agent",
      timeoutMs,
      ...(o.policyVersion === undefined ? {} : { policyVersion: o.policyVersion }),
      ...(o.requireRole === undefined ? {} : { requireRole: o.requireRole }),
      ...(o.requiredApprovals === undefined ? {} : { requiredApprovals: o.requiredApprovals }),
      ...(o.allowSelfApproval === undefined ? {} : { allowSelfApproval: o.allowSelfApproval }),
      ...(ctx.agent === undefined ? {} : { labels: { agent: ctx.agent.role } }),
    });
    const first = submitted.request;
    if (o.mode === "defer") {
      const resumed = await inbox.resume(submitted.resumeToken, {
        toolName: ctx.toolName,
        callId: ctx.callId,
        input: ctx.toolInput,
      });
      if (resumed.kind === "pending") {
        const info: PendingApproval = {
          requestId: resumed.request.id,
          url: resumed.url,
          resumeToken: resumed.resumeToken,
          deadline: resumed.request.deadline,
        };
        ctx.state.inboxPending = info;
        pending.set(`${ctx.toolName}\u0000${ctx.callId}`, info);
        return "defer";
      }
      const settled: Settled =
        resumed.kind === "approved" || resumed.kind === "consumed"
          ? { outcome: "approved", request: resumed.request, input: resumed.request.input, reason: undefined }
          : {
              outcome: resumed.kind,
              request: resumed.request,
              input: resumed.request.input,
              reason: resumed.kind === "denied" ? resumed.reason : undefined,
            };
      return answerOf(settled, first, ctx, resumed.kind === "approved");
    }
    const settled = await inbox.wait(first.id, {
      signal: ctx.signal,
      ...(o.heartbeatMs === undefined ? {} : { heartbeatMs: o.heartbeatMs }),
      ...(o.onHeartbeat === undefined ? {} : { onHeartbeat: o.onHeartbeat }),
    });
    const taken =
      settled.outcome === "approved" &&
      (await inbox.resume(submitted.resumeToken, { toolName: ctx.toolName, callId: ctx.callId, input: ctx.toolInput }))
        .kind === "approved";
    return answerOf(settled, first, ctx, taken);
  }

  function message(d: ApprovalDecision): string {
    const info = pending.get(`${d.toolName}\u0000${d.callId}`);
    if (d.source === "deferred" && info !== undefined) {
      pending.delete(`${d.toolName}\u0000${d.callId}`);
      return `${d.toolName} waits for approval in the inbox (request ${info.requestId}: ${info.url})`;
    }
    if (d.source === "timeout") return `no decision on ${d.toolName} in the inbox in time`;
    if (d.source === "cancelled") return `the call to ${d.toolName} was cancelled while it waited for approval`;
    return `${d.toolName} was not approved${d.detail === undefined ? "" : `: ${d.detail}`}`;
  }

  return {
    external: async function inboxExternal(ctx) {
      try {
        return await external(ctx);
      } catch (error) {
        // The pack denies on a throw too, but with this reason the agent learns why.
        return {
          approve: false,
          reason: `the inbox refused the call: ${messageOf(error)}`,
          binding: bindApproval(ctx.toolName, ctx.callId, ctx.toolInput),
        };
      }
    },
    editMode: "replace",
    // The inbox's deadline decides; the pack's own clock only catches an inbox that stopped answering.
    timeoutMs: timeoutMs + 5_000,
    message,
  };
}
