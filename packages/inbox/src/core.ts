import { decisionClaims } from "./claims.js";
import type {
  AuditRecord,
  AuditSink,
  InboxDecision,
  InboxEvent,
  InboxRequest,
  InboxSigner,
  InboxStore,
} from "./contract.js";
import { inboxError } from "./errors.js";

/** What the parts of one inbox share. @internal */
export interface Core {
  readonly store: InboxStore;
  readonly signer: InboxSigner;
  readonly audit: AuditSink | undefined;
  readonly now: () => number;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly policyVersion: string;
  readonly pollMs: number;
  readonly listeners: Set<(event: InboxEvent) => void>;
  /** Waiters of this process, woken at once when this process changes their request. */
  readonly wakers: Map<string, Set<() => void>>;
}

/** Tells the listeners and wakes this process's waiters; a listener's throw is not the caller's problem. @internal */
export function emit(core: Core, event: InboxEvent): void {
  for (const listener of [...core.listeners]) {
    try {
      listener(event);
    } catch {
      // The feed is for watching: a broken subscriber must not undo a decision.
    }
  }
  if (event.type !== "grant") for (const wake of core.wakers.get(event.request.id) ?? []) wake();
}

/** Appends to the audit log, when there is one. @internal */
export async function record(
  core: Core,
  type: AuditRecord["type"],
  actor: string,
  data: Record<string, unknown>,
): Promise<void> {
  if (core.audit !== undefined) await core.audit.append({ at: core.now(), type, actor, data });
}

/** The audit data of a request: its binding and who is asking, never its arguments (they may hold secrets). @internal */
export function requestData(r: InboxRequest): Record<string, unknown> {
  return {
    id: r.id,
    toolName: r.binding.toolName,
    callId: r.binding.callId,
    digest: r.binding.digest,
    caller: r.caller,
    policyVersion: r.policyVersion,
    state: r.state,
    deadline: r.deadline,
    editedFrom: r.editedFrom ?? null,
  };
}

/** Settles a pending request with a signed decision, if it is still at `r.revision`. @internal */
export async function settle(
  core: Core,
  r: InboxRequest,
  decided: Omit<InboxDecision, "signature" | "at">,
): Promise<InboxRequest | undefined> {
  const body = { ...decided, at: core.now() };
  const decision: InboxDecision = { ...body, signature: core.signer.sign(decisionClaims(r, body)) };
  const next: InboxRequest = { ...r, state: decision.outcome, decision, revision: r.revision + 1 };
  if (!(await core.store.update(next, r.revision))) return undefined;
  const actor =
    decision.approvers.join(",") || (decision.grantId === undefined ? "system" : `grant:${decision.grantId}`);
  await record(core, "decision", actor, {
    ...requestData(next),
    reason: decision.reason ?? null,
    grantId: decision.grantId ?? null,
    editedTo: decision.editedTo ?? null,
  });
  emit(core, { type: "decision", request: next });
  return next;
}

/** A pending request whose deadline passed becomes `expired` (whoever gets there first). @internal */
export async function expireIfDue(core: Core, r: InboxRequest): Promise<InboxRequest> {
  if (r.state !== "pending" || core.now() < r.deadline) return r;
  const expired = await settle(core, r, {
    outcome: "expired",
    approvers: [],
    reason: "no decision before the deadline",
    grantId: undefined,
    editedTo: undefined,
  });
  if (expired !== undefined) return expired;
  return (await core.store.get(r.id)) ?? r;
}

/** The request, or a not-found error. @internal */
export async function load(core: Core, id: string): Promise<InboxRequest> {
  const r = await core.store.get(id);
  if (r === undefined) throw inboxError("TOOLWARE_INBOX_NOT_FOUND", `no request ${JSON.stringify(id.slice(0, 40))}`);
  return r;
}
