import { bindApproval } from "@toolware/core";
import { currentApprover } from "./approvers.js";
import { requestClaims } from "./claims.js";
import type { ApproverRecord, DecideInput, Edited, EditInput, InboxRequest } from "./contract.js";
import { type Core, emit, expireIfDue, load, record, requestData, settle } from "./core.js";
import { checkOptions, checkText, inboxError } from "./errors.js";
import { isInboxId, newId } from "./ids.js";

// A lost compare-and-set means someone else changed the request: read it again, at most this often.
const ROUNDS = 16;

function checkReason(reason: unknown): string | undefined {
  return reason === undefined ? undefined : checkText(reason, "a reason", 2000);
}

/** Whether this approver may settle this request this way; throws the refusal. */
function allowed(r: InboxRequest, who: ApproverRecord, approve: boolean): void {
  if (r.requireRole !== undefined && !who.roles.includes(r.requireRole)) {
    throw inboxError(
      "TOOLWARE_INBOX_FORBIDDEN",
      `${r.binding.toolName} needs an approver with the role "${r.requireRole}"`,
    );
  }
  // Saying no to one's own call is harmless; saying yes to it is what the rule forbids.
  if (approve && who.name === r.caller && !r.allowSelfApproval) {
    throw inboxError("TOOLWARE_INBOX_FORBIDDEN", `${who.name} made this call and cannot approve it`);
  }
  if (approve && r.votes.some((v) => v.approver === who.name)) {
    throw inboxError("TOOLWARE_INBOX_CONFLICT", `${who.name} approved this request already; it needs another approver`);
  }
}

/** Refuses a request that cannot be decided now: settled, past its deadline, or for other arguments. */
async function pendingFor(core: Core, id: string, digest: unknown): Promise<InboxRequest> {
  if (!isInboxId(id)) throw inboxError("TOOLWARE_INBOX_NOT_FOUND", "no such request (malformed id)");
  const r = await expireIfDue(core, await load(core, id));
  if (r.state === "expired")
    throw inboxError("TOOLWARE_INBOX_EXPIRED", `the request ${id} passed its deadline and was denied`);
  if (r.state !== "pending")
    throw inboxError("TOOLWARE_INBOX_CONFLICT", `the request ${id} was decided already (${r.state})`);
  if (digest !== r.binding.digest) {
    throw inboxError(
      "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
      `the decision is for other arguments than the request ${id} (digest mismatch)`,
    );
  }
  return r;
}

async function approveOrVote(
  core: Core,
  r: InboxRequest,
  who: ApproverRecord,
  reason: string | undefined,
): Promise<InboxRequest | undefined> {
  if (r.votes.length + 1 >= r.requiredApprovals) {
    const approvers = [...r.votes.map((v) => v.approver), who.name];
    return settle(core, r, { outcome: "approved", approvers, reason, grantId: undefined, editedTo: undefined });
  }
  const next: InboxRequest = {
    ...r,
    votes: [...r.votes, { approver: who.name, at: core.now() }],
    revision: r.revision + 1,
  };
  if (!(await core.store.update(next, r.revision))) return undefined;
  await record(core, "vote", who.name, requestData(next));
  emit(core, { type: "vote", request: next });
  return next;
}

/** Approves or denies; exactly one of two concurrent deciders wins, the other gets a conflict. @internal */
export async function decide(core: Core, id: string, input: DecideInput): Promise<InboxRequest> {
  const o = checkOptions(input, ["approver", "approve", "reason", "digest"], "decide()");
  if (typeof o.approve !== "boolean") throw inboxError("TOOLWARE_INBOX_INVALID", "`approve` must be true or false");
  const reason = checkReason(o.reason);
  const who = await currentApprover(core.store, o.approver);
  for (let round = 0; round < ROUNDS; round++) {
    const r = await pendingFor(core, id, o.digest);
    allowed(r, who, o.approve);
    const done = o.approve
      ? await approveOrVote(core, r, who, reason)
      : await settle(core, r, {
          outcome: "denied",
          approvers: [who.name],
          reason,
          grantId: undefined,
          editedTo: undefined,
        });
    if (done !== undefined) return done;
  }
  throw inboxError("TOOLWARE_INBOX_CONFLICT", `the request ${id} kept changing while it was decided`);
}

/** "Edit then approve": a new request for the new arguments, approved by this approver; the old one `edited`. @internal */
export async function edit(core: Core, id: string, input: EditInput): Promise<Edited> {
  const o = checkOptions(input, ["approver", "input", "digest", "reason"], "edit()");
  const reason = checkReason(o.reason);
  const who = await currentApprover(core.store, o.approver);
  const old = await pendingFor(core, id, o.digest);
  allowed(old, who, true);
  const binding = bindApproval(old.binding.toolName, old.binding.callId, o.input);
  if (binding.digest === old.binding.digest)
    throw inboxError("TOOLWARE_INBOX_INVALID", "the edit leaves the arguments as they were: approve instead");
  const nextId = newId("req");
  const base = {
    id: nextId,
    binding,
    caller: old.caller,
    policyVersion: old.policyVersion,
    deadline: old.deadline,
    editedFrom: old.id,
  };
  const fresh: InboxRequest = {
    ...old,
    ...base,
    input: JSON.parse(JSON.stringify(o.input)) as unknown,
    createdAt: core.now(),
    state: "pending",
    votes: [],
    decision: undefined,
    kid: core.signer.kid,
    signature: core.signer.sign(requestClaims(base)),
    revision: 0,
  };
  const inserted = await core.store.insert(fresh);
  if (!inserted.inserted)
    throw inboxError("TOOLWARE_INBOX_CONFLICT", "a request for these arguments of this call exists already");
  const edited = await settle(core, old, {
    outcome: "edited",
    approvers: [who.name],
    reason,
    grantId: undefined,
    editedTo: nextId,
  });
  if (edited === undefined) {
    // Someone decided the old request first: the new one must never be approved.
    await settle(core, fresh, {
      outcome: "denied",
      approvers: [],
      reason: "the request it edits was decided first",
      grantId: undefined,
      editedTo: undefined,
    });
    throw inboxError("TOOLWARE_INBOX_CONFLICT", `the request ${id} was decided while it was edited`);
  }
  await record(core, "request", who.name, requestData(fresh));
  emit(core, { type: "request", request: fresh });
  const next = await approveOrVote(core, fresh, who, reason);
  return { edited, next: next ?? (await load(core, nextId)) };
}
