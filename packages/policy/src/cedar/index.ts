export { compileCedar } from "./compile.js";
export type {
  CedarCall,
  CedarDecision,
  CedarEngine,
  CedarPolicyInfo,
  CompileCedarOptions,
  TextLocator,
} from "./types.js";
