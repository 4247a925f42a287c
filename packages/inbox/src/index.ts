export { fileAuditLog, verifyAuditChain } from "./audit.js";
export type {
  Approver,
  ApproverRecord,
  ApproverRegistry,
  AuditRecord,
  AuditSink,
  AuditVerification,
  DecideInput,
  Edited,
  EditInput,
  GrantCondition,
  GrantRegistry,
  Inbox,
  InboxApprovalOptions,
  InboxDecision,
  InboxErrorCode,
  InboxEvent,
  InboxGrant,
  InboxKey,
  InboxLabels,
  InboxOptions,
  InboxRequest,
  InboxSigner,
  InboxState,
  InboxStore,
  InboxVote,
  ListFilter,
  PendingApproval,
  ResumeCall,
  Resumed,
  Settled,
  SubmitInput,
  Submitted,
  WaitOptions,
} from "./contract.js";
export { INBOX_ERROR_STATUS } from "./contract.js";
export {
  type AiSdkApprovalResponsePart,
  aiSdkResponses,
  type LangGraphInterruptLike,
  langGraphResume,
  type PendingCall,
  type Resolved,
  type RunStateLike,
  resolveRunState,
} from "./durable/frameworks.js";
export {
  type InboxCallStatus,
  type InboxResolver,
  type InboxResolverOptions,
  inboxResolver,
} from "./durable/resolver.js";
export { inboxHttpStatus } from "./errors.js";
export { type InboxApprovalParts, inboxApproval } from "./gate.js";
export { isInboxId } from "./ids.js";
export { createInbox } from "./inbox.js";
export { type RedisInboxStoreOptions, redisInboxStore } from "./redis-store.js";
export { createSigner, signerFromEnv, signerFromFile } from "./signer.js";
export { type SqliteInboxStoreOptions, sqliteInboxStore } from "./sqlite-store.js";
