export type { MastraAgentLike, MastraToolHooks } from "./agent.js";
export type { MastraApprovalAnswer } from "./approvals.js";
export { type MastraCall, type MastraToolContext, mastraCall } from "./call.js";
export {
  type MastraResultProcessor,
  type MastraToolInfo,
  type MastraToolware,
  type MastraToolwareOptions,
  mastraToolware,
} from "./guard.js";
