import { type ApprovalBinding, bindApproval, messageOf, type ToolCallHookContext } from "@toolware/core";
import type { ApprovalAnswer, ApprovalDecision, ApprovalOptions, ExternalApproval } from "@toolware/packs/approval";
import type { Inbox, InboxApprovalOptions, PendingApproval, ResumeCall } from "./contract.js";
import { checkShape, isEdit, SHAPE_KEYS, type SubmitShape, submitCall } from "./durable/submit.js";
import { checkOptions, invalidOption } from "./errors.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** Set when the inbox deferred this call: where to decide it and how to resume it. */
    inboxPending?: PendingApproval;
  }
}

const KEYS = [...SHAPE_KEYS, "mode", "handoff", "heartbeatMs", "onHeartbeat"];

/** What {@link inboxApproval} returns: spread it into the approval pack's options. */
export type InboxApprovalParts = Required<
  Pick<ApprovalOptions, "external" | "parseAnswer" | "editMode" | "timeoutMs" | "message">
>;

const callOf = (ctx: ToolCallHookContext): ResumeCall => ({
  toolName: ctx.toolName,
  callId: ctx.callId,
  input: ctx.toolInput,
});
const deny = (reason: string, binding: ApprovalBinding): ApprovalAnswer => ({ approve: false, reason, binding });

/**
 * The inbox's decision for the call, applied once: an approval is taken for this run (a second run of
 * the same call finds it used), an edit approves the edited arguments; "pending" while nobody decided.
 */
async function fromInbox(inbox: Inbox, token: string, ctx: ToolCallHookContext): Promise<ApprovalAnswer | "pending"> {
  const call = callOf(ctx);
  const binding = bindApproval(call.toolName, call.callId, call.input);
  const resumed = await inbox.resume(token, call);
  switch (resumed.kind) {
    case "pending":
      return "pending";
    case "denied":
      return deny(resumed.reason ?? "an approver rejected it", binding);
    case "expired":
      return deny("nobody decided before the deadline", binding);
    case "consumed":
      return deny(`the approval of request ${resumed.request.id} was used already`, binding);
    default:
      return isEdit(call, resumed.request)
        ? { approve: true, input: resumed.input as Record<string, unknown>, binding }
        : { approve: true, binding };
  }
}

/**
 * The approval pack's `external`, answered by the inbox: `mode: "wait"` submits the call and waits
 * for the decision (heartbeats; the deadline denies; the call's signal cancels); `mode: "defer"`
 * ends the call at once as pending (its URL and resume token in `ctx.state.inboxPending`), or with
 * `handoff` pauses it the framework's way, and applies the decision, once, when the same call (tool,
 * id, arguments) comes again. A framework's "yes" never approves on its own: only the inbox's does.
 *
 * @example
 * ```ts
 * hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "wait", caller: "mailer" }) }));
 * ```
 */
export function inboxApproval(options: InboxApprovalOptions): InboxApprovalParts {
  const o = checkOptions(options, KEYS, "inboxApproval()") as unknown as InboxApprovalOptions;
  const timeoutMs = checkShape(o as SubmitShape, "inboxApproval()");
  const inbox: Inbox = o.inbox;
  if (o.mode !== "wait" && o.mode !== "defer") throw invalidOption('inboxApproval() needs `mode`: "wait" or "defer"');
  const handoff = o.handoff ?? "defer";
  if (handoff !== "defer" && handoff !== "ask" && typeof handoff !== "function")
    throw invalidOption('`handoff` must be "defer", "ask" or a function (a framework\'s external approval)');
  if (o.handoff !== undefined && o.mode !== "defer") throw invalidOption('`handoff` goes with `mode: "defer"`');
  const pending = new Map<string, PendingApproval>();
  const keyOf = (toolName: string, callId: string) => `${toolName}\u0000${callId}`;

  async function handOff(ctx: ToolCallHookContext, token: string, info: PendingApproval): Promise<ExternalApproval> {
    if (handoff === "defer") return "defer";
    if (handoff === "ask") return undefined;
    const given = await handoff(ctx);
    if (given === undefined || given === "defer") return given;
    const binding = bindApproval(ctx.toolName, ctx.callId, ctx.toolInput);
    if (given.approve !== true) return deny(given.reason ?? "the framework's approval flow denied it", binding);
    const decided = await fromInbox(inbox, token, ctx);
    return decided === "pending" ? deny(`no decision in the inbox yet (${info.url})`, binding) : decided;
  }

  async function external(ctx: ToolCallHookContext): Promise<ExternalApproval> {
    const submitted = await submitCall(
      o,
      timeoutMs,
      callOf(ctx),
      ctx.agent?.role ?? "agent",
      ctx.agent === undefined ? undefined : { agent: ctx.agent.role },
    );
    const token = submitted.resumeToken;
    if (o.mode === "wait") {
      await inbox.wait(submitted.request.id, {
        signal: ctx.signal,
        ...(o.heartbeatMs === undefined ? {} : { heartbeatMs: o.heartbeatMs }),
        ...(o.onHeartbeat === undefined ? {} : { onHeartbeat: o.onHeartbeat }),
      });
    }
    const decided = await fromInbox(inbox, token, ctx);
    if (decided !== "pending") return decided;
    const info: PendingApproval = {
      requestId: submitted.request.id,
      url: submitted.url,
      resumeToken: token,
      deadline: submitted.request.deadline,
    };
    ctx.state.inboxPending = info;
    pending.set(keyOf(ctx.toolName, ctx.callId), info);
    return handOff(ctx, token, info);
  }

  // With `handoff: "ask"`, the person's answer comes back through the framework: it only wakes the call.
  async function parseAnswer(answer: string, ctx: ToolCallHookContext): Promise<ApprovalAnswer> {
    const binding = bindApproval(ctx.toolName, ctx.callId, ctx.toolInput);
    const info = ctx.state.inboxPending;
    if (info === undefined) return deny("the inbox holds no request for this call", binding);
    if (answer.trim().toLowerCase() !== "yes") {
      const s = await submitCall(o, timeoutMs, callOf(ctx), ctx.agent?.role ?? "agent", undefined);
      const reason = s.request.state === "denied" ? s.request.decision?.reason : undefined;
      return deny(reason ?? `the run was resumed with ${JSON.stringify(answer.slice(0, 200))}`, binding);
    }
    const decided = await fromInbox(inbox, info.resumeToken, ctx);
    return decided === "pending" ? deny(`no decision in the inbox yet (${info.url})`, binding) : decided;
  }

  function message(d: ApprovalDecision): string {
    const info = pending.get(keyOf(d.toolName, d.callId));
    if (info !== undefined) pending.delete(keyOf(d.toolName, d.callId));
    if (d.source === "deferred" && info !== undefined)
      return `${d.toolName} waits for approval in the inbox (request ${info.requestId}: ${info.url})`;
    if (d.source === "timeout") return `no decision on ${d.toolName} in the inbox in time`;
    if (d.source === "cancelled") return `the call to ${d.toolName} was cancelled while it waited for approval`;
    return `${d.toolName} was not approved${d.detail === undefined ? "" : `: ${d.detail}`}`;
  }

  const refused = (ctx: ToolCallHookContext, error: unknown): ApprovalAnswer =>
    // The pack denies on a throw too, but with this reason the agent learns why.
    deny(`the inbox refused the call: ${messageOf(error)}`, bindApproval(ctx.toolName, ctx.callId, ctx.toolInput));

  return {
    external: async function inboxExternal(ctx) {
      try {
        return await external(ctx);
      } catch (error) {
        return refused(ctx, error);
      }
    },
    parseAnswer: async function inboxAnswer(answer, ctx) {
      try {
        return await parseAnswer(answer, ctx);
      } catch (error) {
        return refused(ctx, error);
      }
    },
    editMode: "replace",
    // The inbox's deadline decides; the pack's own clock only catches an inbox that stopped answering.
    timeoutMs: timeoutMs + 5_000,
    message,
  };
}
