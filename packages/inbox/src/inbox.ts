import { bindApproval } from "@toolware/core";
import { approverRegistry, currentApprover } from "./approvers.js";
import { requestClaims, verifyRequest } from "./claims.js";
import type { Inbox, InboxOptions, InboxRequest, ListFilter, SubmitInput, Submitted } from "./contract.js";
import { type Core, emit, expireIfDue, record, requestData, settle } from "./core.js";
import { decide, edit } from "./decide.js";
import { checkOptions, checkText, inboxError, invalidOption } from "./errors.js";
import { grantFor, grantRegistry } from "./grants.js";
import { isInboxId, newId } from "./ids.js";
import { current, resume, tokenFor, wait } from "./wait.js";

const OPTIONS = ["store", "signer", "audit", "baseUrl", "timeoutMs", "policyVersion", "pollMs", "now"];
const SUBMIT = [
  "toolName",
  "callId",
  "input",
  "caller",
  "policyVersion",
  "prompt",
  "timeoutMs",
  "requireRole",
  "requiredApprovals",
  "allowSelfApproval",
  "labels",
  "schema",
];
const STATES = ["pending", "approved", "denied", "edited", "expired"];

function checkTimeout(value: unknown, name: string): number {
  if (!(typeof value === "number" && value > 0 && value <= 2_147_483_647)) {
    throw invalidOption(`\`${name}\` must be a positive number of milliseconds, at most 2147483647`);
  }
  return value;
}

function checkLabels(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw inboxError("TOOLWARE_INBOX_INVALID", "`labels` must be an object of strings");
  const labels: Record<string, string> = {};
  for (const [key, text] of Object.entries(value))
    labels[checkText(key, "a label name", 100)] = checkText(text, `the label ${key}`, 500);
  return labels;
}

function checkFilter(filter: ListFilter): ListFilter {
  const f = checkOptions(filter, ["state", "toolName", "caller", "since", "limit"], "list()") as ListFilter;
  if (f.state !== undefined && !STATES.includes(f.state))
    throw inboxError("TOOLWARE_INBOX_INVALID", `\`state\` must be one of ${STATES.join(", ")}`);
  for (const key of ["toolName", "caller"] as const) if (f[key] !== undefined) checkText(f[key], key);
  if (f.since !== undefined && !Number.isFinite(f.since))
    throw inboxError("TOOLWARE_INBOX_INVALID", "`since` must be a time in ms");
  if (f.limit !== undefined && !(Number.isInteger(f.limit) && f.limit >= 1 && f.limit <= 1000)) {
    throw inboxError("TOOLWARE_INBOX_INVALID", "`limit` must be an integer from 1 to 1000");
  }
  return f;
}

/**
 * The approval inbox: issues signed requests bound to one call, keeps them in a durable store,
 * lets named approvers decide them, and hands each decision to its call once.
 *
 * @example
 * ```ts
 * const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
 * const { request, url } = await inbox.submit({ toolName: "send_email", callId: "c1", input: { to: "a@example.com" }, caller: "mailer" });
 * const settled = await inbox.wait(request.id); // an approver decides at `url`
 * ```
 */
export function createInbox(options: InboxOptions): Inbox {
  const o = checkOptions(options, OPTIONS, "createInbox()") as unknown as InboxOptions;
  if (o.store === null || typeof o.store !== "object")
    throw invalidOption("createInbox() needs a `store` (sqliteInboxStore or redisInboxStore)");
  if (o.signer === null || typeof o.signer !== "object" || typeof o.signer.sign !== "function")
    throw invalidOption("createInbox() needs a `signer` (createSigner, signerFromEnv)");
  const baseUrl = o.baseUrl ?? "http://127.0.0.1:7717";
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(baseUrl))
    throw invalidOption("`baseUrl` must be an http(s) URL without query or fragment");
  const pollMs = o.pollMs ?? 10;
  if (!(Number.isInteger(pollMs) && pollMs >= 1 && pollMs <= 60_000))
    throw invalidOption("`pollMs` must be an integer from 1 to 60000");
  const core: Core = {
    store: o.store,
    signer: o.signer,
    audit: o.audit,
    now: o.now ?? Date.now,
    baseUrl: baseUrl.replace(/\/$/, ""),
    timeoutMs: checkTimeout(o.timeoutMs ?? 300_000, "timeoutMs"),
    policyVersion: o.policyVersion === undefined ? "1" : checkText(o.policyVersion, "policyVersion"),
    pollMs,
    listeners: new Set(),
    wakers: new Map(),
  };
  const urlOf = (id: string): string => `${core.baseUrl}/requests/${encodeURIComponent(id)}`;
  const submitted = (request: InboxRequest, created: boolean): Submitted => ({
    request,
    created,
    url: urlOf(request.id),
    resumeToken: tokenFor(core, request),
  });

  async function submit(input: SubmitInput): Promise<Submitted> {
    const s = checkOptions(input, SUBMIT, "submit()") as unknown as SubmitInput;
    const toolName = checkText(s.toolName, "toolName");
    const callId = checkText(s.callId, "callId");
    const binding = bindApproval(toolName, callId, s.input);
    const requiredApprovals = s.requiredApprovals ?? 1;
    if (requiredApprovals !== 1 && requiredApprovals !== 2)
      throw inboxError("TOOLWARE_INBOX_INVALID", "`requiredApprovals` must be 1 or 2");
    if (s.allowSelfApproval !== undefined && typeof s.allowSelfApproval !== "boolean")
      throw inboxError("TOOLWARE_INBOX_INVALID", "`allowSelfApproval` must be a boolean");
    const now = core.now();
    const claims = {
      id: newId("req"),
      binding,
      caller: checkText(s.caller, "caller"),
      policyVersion: s.policyVersion === undefined ? core.policyVersion : checkText(s.policyVersion, "policyVersion"),
      deadline: now + checkTimeout(s.timeoutMs ?? core.timeoutMs, "timeoutMs"),
      editedFrom: undefined,
    };
    const request: InboxRequest = {
      ...claims,
      // A copy as JSON: the approver sees, and the store keeps, exactly what was digested.
      input: JSON.parse(JSON.stringify(s.input)) as unknown,
      prompt: s.prompt === undefined ? undefined : checkText(s.prompt, "prompt", 20_000),
      labels: checkLabels(s.labels),
      schema: s.schema === undefined ? undefined : (JSON.parse(JSON.stringify(s.schema)) as unknown),
      createdAt: now,
      state: "pending",
      requireRole: s.requireRole === undefined ? undefined : checkText(s.requireRole, "requireRole", 100),
      requiredApprovals,
      allowSelfApproval: s.allowSelfApproval ?? false,
      votes: [],
      decision: undefined,
      kid: core.signer.kid,
      signature: core.signer.sign(requestClaims(claims)),
      revision: 0,
    };
    const inserted = await core.store.insert(request);
    if (!inserted.inserted) {
      // The request that carries the decision (after edits), and a token for this call's own request:
      // a token names the arguments it was issued for, and the call comes back with its own.
      const last = await current(core, inserted.existing.id);
      return { ...submitted(last, false), resumeToken: tokenFor(core, inserted.existing) };
    }
    await record(core, "request", request.caller, requestData(request));
    emit(core, { type: "request", request });
    const grant = grantFor(await core.store.listGrants(), request, now);
    if (grant !== undefined) {
      const granted = await settle(core, request, {
        outcome: "approved",
        approvers: [],
        reason: grant.reason,
        grantId: grant.id,
        editedTo: undefined,
      });
      if (granted !== undefined) return submitted(granted, true);
    }
    return submitted(request, true);
  }

  const grants = grantRegistry({
    store: core.store,
    now: core.now,
    approver: (approver) => currentApprover(core.store, approver),
    async recorded(grant, type) {
      await record(core, type, type === "grant" ? grant.grantedBy : (grant.revokedBy ?? "system"), { ...grant });
      emit(core, { type: "grant", grant });
    },
  });

  return {
    submit,
    get: async (id) => (isInboxId(id) ? core.store.get(id) : undefined),
    list: async (filter = {}) => core.store.list(checkFilter(filter)),
    decide: (id, decision) => decide(core, id, decision),
    edit: (id, input) => edit(core, id, input),
    // A promise-returning method rejects, never throws, for a mistaken option too.
    wait: async (id, waitOptions) => wait(core, id, waitOptions),
    resume: (token, call) => resume(core, token, call),
    verify: (request) => verifyRequest(core.signer, request),
    async expire() {
      let count = 0;
      for (const r of await core.store.list({ state: "pending", limit: 1000 })) {
        if (r.deadline <= core.now() && (await expireIfDue(core, r)).state === "expired") count++;
      }
      return count;
    },
    approvers: approverRegistry(core.store),
    grants,
    subscribe(listener) {
      if (typeof listener !== "function") throw invalidOption("subscribe() takes a listener function");
      const own = (event: Parameters<typeof listener>[0]) => listener(event);
      core.listeners.add(own);
      return () => void core.listeners.delete(own);
    },
    urlOf,
    async close() {
      core.listeners.clear();
      await core.audit?.close();
      await core.store.close();
    },
  };
}
