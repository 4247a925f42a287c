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
  CedarDoc,
  KeyPath,
  LoadedDocument,
  MatchDoc,
  PacksDoc,
  PolicyDecision,
  PolicyDocument,
  PolicyMode,
  RuleDoc,
  SourceSpan,
  StoreRef,
} from "./document.js";
