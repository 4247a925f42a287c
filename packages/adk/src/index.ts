export { type AdkApprovalsOptions, adkApprovals } from "./approvals.js";
export { type AdkCall, adkCall } from "./call.js";
export type { AdkToolInfo } from "./chain.js";
export { type AdkToolResponse, outcomeToResponse } from "./outcome.js";
export { ToolwarePlugin, type ToolwarePluginOptions, toolwarePlugin } from "./plugin.js";
