export { ANNOTATION_TAGS, type AppToolInfo } from "./annotations.js";
export type { McpBindings, McpFrameworkName } from "./bindings.js";
export { type GuardClientOptions, guardClient, type McpClientCall, mcpClientCall } from "./client.js";
export { type ElicitationHumanInputOptions, elicitationHumanInput, elicitedAnswer } from "./elicitation.js";
export { readToolwareMeta, TOOLWARE_META, type ToolwareMeta } from "./meta.js";
export { outcomeToCallToolResult, textOfResult } from "./result.js";
export { type ServeToolOptions, serveTool } from "./serve.js";
export {
  type GuardServerOptions,
  guardServer,
  type McpRequestExtra,
  type McpServerCall,
  mcpServerCall,
} from "./server.js";
