export { claudeApprovals } from "./approvals.js";
export { type ToolwareClaudeHooks, toolwareHooks } from "./hooks.js";
export type { ToolwareHooksOptions } from "./options.js";
