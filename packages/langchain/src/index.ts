export {
  type InterruptHumanInputOptions,
  interruptHumanInput,
  type ToolwareInterrupt,
  type ToolwareResume,
} from "./durable.js";
export { type GuardToolOptions, guardTool, type LangChainToolCall, langchainToolCall } from "./guard-tool.js";
export {
  type LangChainCall,
  langchainCall,
  type ToolwareMiddlewareOptions,
  toolwareMiddleware,
} from "./middleware.js";
export type { AppToolInfo } from "./options.js";
export { outcomeToToolMessage, type ToolCallResult } from "./outcome.js";
export type { LangChainFrameworkName } from "./run-call.js";
