export { type AiSdkToolApprovalRequest, type AiSdkToolApprovalStatus, toolApproval } from "./approval.js";
export { type AiSdkApprovalAnswer, aiSdkApproval, aiSdkCall } from "./call.js";
export { guardTools } from "./guard.js";
export { type DeniedOutput, isDeniedOutput } from "./outcome.js";
export type {
  AiSdkApprovalResponse,
  AiSdkBindings,
  AiSdkCallContext,
  AiSdkToolInfo,
  GuardToolsOptions,
  UnguardableTool,
} from "./types.js";
