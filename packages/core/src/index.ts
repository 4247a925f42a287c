export {
  type BindFunction,
  bindCall,
  failedOutcome,
  notifyOutcome,
  type OutcomeListener,
  type PerCallBindings,
} from "./adapter-kit.js";
export {
  type ExecuteTool,
  type ExecutionWrapper,
  formatToolResult,
  type HumanInputOptions,
  ToolCallHookContext,
} from "./context.js";
export * from "./decorators.js";
export * from "./default-hooks.js";
export { Agent, type AgentOptions, Crew, type CrewOptions, Task, type TaskOptions } from "./entities.js";
export * from "./errors.js";
export * from "./human-input.js";
export { InputRejectedError } from "./input-schema.js";
export { normalizeName } from "./names.js";
export type { ToolHooksMessages, ToolHooksOptions } from "./options.js";
export { definePack, type HookSpec, isPack, type Pack, type PackSpec } from "./pack.js";
export { HookRegistry, type RegistryEvents, type ToolScopedOptions } from "./registry.js";
export { defineTool, inputSchemaOf, type ToolDefinition } from "./tool.js";
export {
  type CallBindings,
  type ExplainQuery,
  ToolHooks,
  type ToolHooksEvents,
} from "./tool-hooks.js";
export type * from "./types.js";
export type { WrappedExecuteOptions, WrappedTool } from "./wrap.js";
