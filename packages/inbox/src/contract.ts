import type { ApprovalBinding, ToolCallHookContext } from "@toolware/core";
import type { ExternalApproval } from "@toolware/packs/approval";

// The public shape of the inbox service: what the HTTP server, the page, the CLI and the adapters
// build on. Implementations live beside this file; changes here stay backward compatible.

/** Where a request is: pending until one decision settles it for good. */
export type InboxState = "pending" | "approved" | "denied" | "edited" | "expired";

/** Labels shown with a request (agent, task, crew, …): short strings only. */
export type InboxLabels = Readonly<Record<string, string>>;

/** What a call submits to be approved. */
export interface SubmitInput {
  readonly toolName: string;
  readonly callId: string;
  /** The call's arguments: plain JSON data (`digestArguments` must accept them). */
  readonly input: unknown;
  /** Who makes the call (an agent, a service): an approver with this name cannot approve it unless allowed. */
  readonly caller: string;
  /** The version of the policy that asked for approval. Default: the inbox's `policyVersion`. */
  readonly policyVersion?: string;
  /** The question shown to the approver. */
  readonly prompt?: string;
  /** Deny when nobody decides within this many ms. Default: the inbox's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** Only an approver with this role may approve. */
  readonly requireRole?: string;
  /** How many distinct approvers must approve: 1 (default) or 2. */
  readonly requiredApprovals?: 1 | 2;
  /** Let an approver named like the caller approve. Default false. */
  readonly allowSelfApproval?: boolean;
  readonly labels?: InboxLabels;
  /** The tool's JSON Schema, when it has one: an edit is checked against it by the page. */
  readonly schema?: unknown;
}

/** One approver's "yes" on a request that needs two. */
export interface InboxVote {
  readonly approver: string;
  readonly at: number;
}

/** How a request was settled. */
export interface InboxDecision {
  readonly outcome: Exclude<InboxState, "pending">;
  /** The approvers who decided (two for a two-approver request); empty for an expiry or a grant. */
  readonly approvers: readonly string[];
  /** The reason given (a rejection's reason reaches the agent). */
  readonly reason: string | undefined;
  readonly at: number;
  /** The grant that approved it without asking. */
  readonly grantId: string | undefined;
  /** For `edited`: the new request, bound to the new arguments. */
  readonly editedTo: string | undefined;
  /** The server's signature over the decision and the request's digest: a state written by anyone else is refused. */
  readonly signature: string;
}

/** An approval request as the server issued it. Plain JSON: stores keep it as is. */
export interface InboxRequest {
  /** `req_` then 22 base64url characters (see {@link isInboxId}). */
  readonly id: string;
  /** Tool, call id and digest of the arguments (core's `bindApproval`). */
  readonly binding: ApprovalBinding;
  readonly input: unknown;
  readonly caller: string;
  readonly policyVersion: string;
  readonly prompt: string | undefined;
  readonly labels: InboxLabels;
  readonly schema: unknown;
  readonly createdAt: number;
  readonly deadline: number;
  readonly state: InboxState;
  readonly requireRole: string | undefined;
  readonly requiredApprovals: 1 | 2;
  readonly allowSelfApproval: boolean;
  /** Approvals so far, before a two-approver request is settled. */
  readonly votes: readonly InboxVote[];
  readonly decision: InboxDecision | undefined;
  /** For a request made by "edit then approve": the request it replaces. */
  readonly editedFrom: string | undefined;
  /** The signing key's id and the signature over the request's claims (id, binding, caller, policy version, deadline). */
  readonly kid: string;
  readonly signature: string;
  /** Bumped by every state change: stores compare and set on it. */
  readonly revision: number;
}

/** What {@link Inbox.submit} returns. */
export interface Submitted {
  readonly request: InboxRequest;
  /** False when the call joined an existing request for the same tool, call id and arguments. */
  readonly created: boolean;
  /** The request's page (`<baseUrl>/requests/<id>`). */
  readonly url: string;
  /** Signed; hands the decision to the call when it comes again. */
  readonly resumeToken: string;
}

/** An approver who logged in: only {@link ApproverRegistry.authenticate} makes these. */
export interface Approver {
  readonly name: string;
  readonly roles: readonly string[];
}

/** What {@link Inbox.decide} takes. */
export interface DecideInput {
  /** From `approvers.authenticate(token)`; any other object is refused. */
  readonly approver: Approver;
  readonly approve: boolean;
  readonly reason?: string;
  /** The digest of the arguments the approver saw: refused when the request is for others. */
  readonly digest: string;
}

/** What {@link Inbox.edit} takes: the approver approves these arguments instead. */
export interface EditInput {
  readonly approver: Approver;
  readonly input: unknown;
  /** The digest of the arguments the approver saw and edited. */
  readonly digest: string;
  readonly reason?: string;
}

/** What {@link Inbox.edit} returns: the old request (`edited`) and the new one (approved, or waiting for a second approver). */
export interface Edited {
  readonly edited: InboxRequest;
  readonly next: InboxRequest;
}

/** The settled end of a wait: the request that carries the decision (the last one, after edits). */
export interface Settled {
  readonly outcome: "approved" | "denied" | "expired";
  readonly request: InboxRequest;
  /** The arguments approved (an edit's, after "edit then approve"). */
  readonly input: unknown;
  readonly reason: string | undefined;
}

export interface WaitOptions {
  readonly signal?: AbortSignal;
  /** Called every `heartbeatMs` while waiting (a worker lease, a keep-alive). Default 15 000 ms. */
  readonly onHeartbeat?: (request: InboxRequest) => void;
  readonly heartbeatMs?: number;
}

/** What the call gets when it comes again with its resume token. */
export type Resumed =
  | { readonly kind: "pending"; readonly request: InboxRequest; readonly url: string; readonly resumeToken: string }
  | { readonly kind: "approved"; readonly request: InboxRequest; readonly input: unknown }
  | { readonly kind: "denied"; readonly request: InboxRequest; readonly reason: string | undefined }
  | { readonly kind: "expired"; readonly request: InboxRequest }
  /** The approval was applied once already: the tool must not run again. */
  | { readonly kind: "consumed"; readonly request: InboxRequest };

/** The call a resume token is presented with. */
export interface ResumeCall {
  readonly toolName: string;
  readonly callId: string;
  readonly input: unknown;
}

export interface ListFilter {
  readonly state?: InboxState;
  readonly toolName?: string;
  readonly caller?: string;
  /** Created at or after (ms since the epoch). */
  readonly since?: number;
  /** At most this many, newest first. Default 100, at most 1000. */
  readonly limit?: number;
}

/** Named approvers with hashed tokens. */
export interface ApproverRegistry {
  /** Adds (or replaces) an approver; returns the token, shown once (a fresh random one unless given). */
  add(options: {
    name: string;
    roles?: readonly string[];
    token?: string;
  }): Promise<{ approver: Approver; token: string }>;
  remove(name: string): Promise<boolean>;
  list(): Promise<readonly Approver[]>;
  /** The approver this token belongs to (constant-time compare), or undefined. */
  authenticate(token: string): Promise<Approver | undefined>;
}

/** An argument condition: each key's value must equal, or match the glob (`*@example.com`), or be one of a list. */
export type GrantCondition = Readonly<
  Record<string, string | number | boolean | readonly (string | number | boolean)[]>
>;

/** A time-boxed permission: calls of `toolName` whose arguments meet `where` are approved without asking. */
export interface InboxGrant {
  readonly id: string;
  readonly toolName: string;
  readonly where: GrantCondition;
  readonly grantedBy: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly revokedAt: number | undefined;
  readonly revokedBy: string | undefined;
  readonly reason: string | undefined;
}

export interface GrantRegistry {
  create(options: {
    approver: Approver;
    toolName: string;
    where?: GrantCondition;
    ttlMs: number;
    reason?: string;
  }): Promise<InboxGrant>;
  revoke(id: string, approver: Approver): Promise<InboxGrant>;
  /** Grants in force (not expired, not revoked), or all with `{ all: true }`. */
  list(options?: { all?: boolean }): Promise<readonly InboxGrant[]>;
}

/** What the event feed carries (for server-sent events). */
export type InboxEvent =
  | { readonly type: "request"; readonly request: InboxRequest }
  | { readonly type: "vote"; readonly request: InboxRequest }
  | { readonly type: "decision"; readonly request: InboxRequest }
  | { readonly type: "grant"; readonly grant: InboxGrant };

/** The inbox service. */
export interface Inbox {
  /** Issues (or joins) the request for this call. */
  submit(input: SubmitInput): Promise<Submitted>;
  get(id: string): Promise<InboxRequest | undefined>;
  list(filter?: ListFilter): Promise<readonly InboxRequest[]>;
  /** Approves or denies a pending request. Throws `TOOLWARE_INBOX_*` errors (see {@link inboxHttpStatus}). */
  decide(id: string, decision: DecideInput): Promise<InboxRequest>;
  /** "Edit then approve": the old request becomes `edited`, a new one bound to the new arguments is issued and approved by this approver. */
  edit(id: string, edit: EditInput): Promise<Edited>;
  /** Waits for the decision (following edits); a deadline passed denies as `expired`. */
  wait(id: string, options?: WaitOptions): Promise<Settled>;
  /** Applies the decision to the call that comes again, exactly once. */
  resume(resumeToken: string, call: ResumeCall): Promise<Resumed>;
  /** Whether the request carries a valid server signature over its claims. */
  verify(request: InboxRequest): boolean;
  /** Settles every pending request past its deadline as `expired`; returns how many. */
  expire(): Promise<number>;
  readonly approvers: ApproverRegistry;
  readonly grants: GrantRegistry;
  /** Hears every request, vote, decision and grant made through this inbox; returns the unsubscribe function. */
  subscribe(listener: (event: InboxEvent) => void): () => void;
  /** The request's page URL. */
  urlOf(id: string): string;
  close(): Promise<void>;
}

/** Error codes of the inbox, and the HTTP status each maps to. */
export const INBOX_ERROR_STATUS = {
  TOOLWARE_INBOX_INVALID: 400,
  TOOLWARE_INBOX_UNAUTHORIZED: 401,
  TOOLWARE_INBOX_FORGED: 401,
  TOOLWARE_INBOX_FORBIDDEN: 403,
  TOOLWARE_INBOX_NOT_FOUND: 404,
  TOOLWARE_INBOX_CONFLICT: 409,
  TOOLWARE_INBOX_ARGUMENTS_CHANGED: 409,
  TOOLWARE_INBOX_EXPIRED: 410,
  TOOLWARE_INBOX_STORE: 503,
} as const;

export type InboxErrorCode = keyof typeof INBOX_ERROR_STATUS;

/** A signing key. HMAC keys sign and verify; an Ed25519 key without its private half only verifies. */
export type InboxKey =
  | { readonly kid: string; readonly alg: "HS256"; readonly secret: string | Uint8Array }
  | {
      readonly kid: string;
      readonly alg: "EdDSA";
      /** PEM (PKCS#8), or omitted on a process that only verifies. */
      readonly privateKey?: string;
      /** PEM (SPKI). */
      readonly publicKey: string;
    };

/** Signs with the current key, verifies with any listed one (rotation). */
export interface InboxSigner {
  readonly kid: string;
  /** `<kid>.<base64url signature>` over the text. */
  sign(text: string): string;
  verify(text: string, signature: string): boolean;
}

/** Durable state behind the inbox: SQLite (default) or Redis. Every method is atomic. */
export interface InboxStore {
  /** Inserts a new request; false when its call (tool, call id, digest) already has one, returned as `existing`. */
  insert(request: InboxRequest): Promise<{ inserted: true } | { inserted: false; existing: InboxRequest }>;
  get(id: string): Promise<InboxRequest | undefined>;
  /** Compare and set: writes `next` only when the stored revision is `revision`. */
  update(next: InboxRequest, revision: number): Promise<boolean>;
  list(filter: ListFilter): Promise<readonly InboxRequest[]>;
  /** Marks a one-time key used: true the first time only. */
  consume(key: string): Promise<boolean>;
  putApprover(record: ApproverRecord): Promise<void>;
  getApprover(name: string): Promise<ApproverRecord | undefined>;
  listApprovers(): Promise<readonly ApproverRecord[]>;
  removeApprover(name: string): Promise<boolean>;
  putGrant(grant: InboxGrant): Promise<void>;
  listGrants(): Promise<readonly InboxGrant[]>;
  close(): Promise<void>;
}

/** An approver as stored: never the token, only its hash. */
export interface ApproverRecord {
  readonly name: string;
  readonly roles: readonly string[];
  /** `sha256:<hex>` of the token (tokens are 256 random bits). */
  readonly tokenHash: string;
  /** First 8 hex digits of the hash, so a token finds its approver without a scan. */
  readonly lookup: string;
}

/** One line of the hash-chained audit log. */
export interface AuditRecord {
  readonly seq: number;
  readonly at: number;
  readonly type: "request" | "vote" | "decision" | "grant" | "revoke" | "consume";
  /** The approver (or `system` for an expiry, the caller for a request). */
  readonly actor: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** `sha256:<hex>` of the previous line (`sha256:0…0` for the first). */
  readonly prev: string;
  /** `sha256:<hex>` of this record without `hash`. */
  readonly hash: string;
}

export interface AuditSink {
  append(record: Omit<AuditRecord, "seq" | "prev" | "hash">): Promise<AuditRecord>;
  close(): Promise<void>;
}

/** What `verifyAuditChain(file)` finds. */
export interface AuditVerification {
  readonly ok: boolean;
  readonly records: number;
  /** The 1-based line where the chain breaks. */
  readonly line: number | undefined;
  readonly problem: string | undefined;
}

/** Options of `createInbox`. */
export interface InboxOptions {
  readonly store: InboxStore;
  readonly signer: InboxSigner;
  /** Where requests and decisions are appended (a `fileAuditLog(path)`). */
  readonly audit?: AuditSink;
  /** The page's address, for request URLs. Default `http://127.0.0.1:7717`. */
  readonly baseUrl?: string;
  /** Default deadline of a request. Default 300 000 ms. */
  readonly timeoutMs?: number;
  readonly policyVersion?: string;
  /** How often a waiting call looks at the store for a decision made by another process. Default 10 ms. */
  readonly pollMs?: number;
  /** The clock (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** Options of `inboxApproval`: the approval pack's `external`, answered by the inbox. */
export interface InboxApprovalOptions {
  readonly inbox: Inbox;
  /** `"wait"` blocks the call until decided; `"defer"` ends it at once as pending (its URL and resume token in `ctx.state.inboxPending`). */
  readonly mode: "wait" | "defer";
  /**
   * With `mode: "defer"`, what a call whose request is still pending gets: `"defer"` (default) ends
   * it at once as blocked, with the URL in its reason; `"ask"` hands it to the hooks' human-input
   * provider (LangGraph's `interruptHumanInput`, OpenAI's `openAIAgentsApprovals`, MCP elicitation),
   * so the framework pauses the run; a function is the framework's own `external` (ai 7's
   * `aiSdkApproval`). Either way the framework's "yes" only wakes the call: the inbox decides.
   */
  readonly handoff?: "defer" | "ask" | ((ctx: ToolCallHookContext) => ExternalApproval | Promise<ExternalApproval>);
  /** Who makes the call. Default: the agent's id or role, else `"agent"`. */
  readonly caller?: string;
  readonly policyVersion?: string;
  readonly timeoutMs?: number;
  readonly requireRole?: string;
  readonly requiredApprovals?: 1 | 2;
  readonly allowSelfApproval?: boolean;
  readonly heartbeatMs?: number;
  readonly onHeartbeat?: (request: InboxRequest) => void;
}

/** What a deferred call carries (in `ctx.state.inboxPending` and the blocked reason): where to decide, and how to resume. */
export interface PendingApproval {
  readonly requestId: string;
  readonly url: string;
  readonly resumeToken: string;
  readonly deadline: number;
}
