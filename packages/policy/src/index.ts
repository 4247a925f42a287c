export {
  type CedarCall,
  type CedarDecision,
  type CedarEngine,
  type CedarPolicyInfo,
  type CompileCedarOptions,
  compileCedar,
  type TextLocator,
} from "./cedar/index.js";
export type {
  AnnotationsMatch,
  ApprovalDoc,
  AuditPackDoc,
  CachePackDoc,
  CedarDoc,
  CircuitBreakerPackDoc,
  KeyPath,
  LoadedDocument,
  LoopGuardPackDoc,
  MatchDoc,
  PacksDoc,
  PolicyDecision,
  PolicyDocument,
  PolicyLoadIssue,
  PolicyMode,
  QueryRulesDoc,
  RateLimitPackDoc,
  RedactPackDoc,
  RetryPackDoc,
  RuleDoc,
  SafePathDoc,
  SourceSpan,
  StoreRef,
  TimeoutPackDoc,
  ToolNamesDoc,
  ValidatePackDoc,
} from "./document.js";
export {
  checkPolicyObject,
  formatIssue,
  MAX_POLICY_BYTES,
  type ParsePolicyOptions,
  PolicyLoadError,
  parsePolicyText,
  readPolicyFile,
} from "./load/index.js";
export { CEL_LIMITS, type CelFacts, type CompiledCondition, compileCondition } from "./runtime/cel.js";
export type { PolicyCallDecision, ShadowHit } from "./runtime/decide.js";
export type { PolicyCounters, PolicyEvent, RuleCounters } from "./runtime/events.js";
export type {
  CedarExplanation,
  ConditionResult,
  ExplainCall,
  ExplainedRule,
  MatchKey,
  PolicyExplanation,
} from "./runtime/explain.js";
export { loadPolicy, type PolicyApi, type PolicyPack } from "./runtime/load.js";
export type { LoadPolicyOptions, PolicyConnectOption, PolicyStoresOption } from "./runtime/options.js";
export { type WatchApi, type WatchedPolicyPack, type WatchPolicyOptions, watchPolicy } from "./runtime/watch.js";
