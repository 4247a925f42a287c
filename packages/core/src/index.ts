/**
 * The public API of `@toolware/core`: each name listed once, by the module that defines it. Every
 * other module of the package is internal (the package's `exports` map closes deep imports).
 * Adapter packages use the adapter kit (`bindCall`, `failedOutcome`, `notifyOutcome`) rather than
 * copies of their own. The terminal provider reaches node:readline only when it first asks, so the
 * core loads in any runtime.
 *
 * @module @toolware/core
 */

export {
  adviseDeveloper,
  announceRefused,
  claimGuard,
  guardOf,
  linkAbort,
  type RefusedCall,
  readArguments,
  refusedOutcome,
} from "./adapter-calls.js";
export {
  type BindFunction,
  bindCall,
  failedOutcome,
  notifyOutcome,
  type OutcomeListener,
  type PerCallBindings,
} from "./adapter-kit.js";
export {
  type ApprovalBinding,
  ApprovalLedger,
  approvalAnswers,
  bindApproval,
  bindingKey,
  digestArguments,
  sameBinding,
} from "./approval-binding.js";
export type { CallBindings, ExplainQuery } from "./call-args.js";
export {
  type ExecuteTool,
  type ExecutionWrapper,
  type HumanInputOptions,
  ToolCallHookContext,
} from "./context.js";
export {
  type AfterDecorator,
  type AfterHookMethod,
  afterToolCall,
  afterToolCallCrew,
  type BeforeDecorator,
  type BeforeHookMethod,
  beforeToolCall,
  beforeToolCallCrew,
  type DecoratorOptions,
} from "./decorators.js";
export {
  clearAfterToolCallHooks,
  clearAllToolCallHooks,
  clearBeforeToolCallHooks,
  defaultToolHooks,
  getAfterToolCallHooks,
  getBeforeToolCallHooks,
  registerAfterToolCallHook,
  registerBeforeToolCallHook,
  unregisterAfterToolCallHook,
  unregisterBeforeToolCallHook,
} from "./default-hooks.js";
export { Agent, type AgentOptions, Crew, type CrewOptions, Task, type TaskOptions } from "./entities.js";
export {
  HookFailedError,
  HookTimeoutError,
  HumanInputTimeoutError,
  HumanInputUnavailableError,
  messageOf,
  ToolwareError,
  type ToolwareErrorCode,
  ToolwareTypeError,
  toolwareCode,
  UNREADABLE_VALUE,
} from "./errors.js";
export type { RegistryEvents, ToolHooksEvents } from "./events.js";
export { formatToolResult } from "./format.js";
export {
  type HumanInputProvider,
  type HumanInputRequest,
  type ScriptedAnswer,
  type ScriptedHumanInput,
  scriptedHumanInput,
  withHumanInputTimeout,
} from "./human-input.js";
export { InputRejectedError } from "./input-schema.js";
export { closestKey } from "./keys.js";
export { normalizeName } from "./names.js";
export type { ToolHooksMessages, ToolHooksOptions } from "./options.js";
export { definePack, type HookSpec, isPack, type Pack, type PackSpec } from "./pack.js";
export { HookRegistry, type ToolScopedOptions } from "./registry.js";
export {
  type TerminalHumanInputOptions,
  type TerminalInput,
  type TerminalOutput,
  terminalHumanInput,
} from "./terminal-input.js";
export { defineTool, inputSchemaOf, type ToolDefinition } from "./tool.js";
export { ToolHooks } from "./tool-hooks.js";
export type {
  AfterHookResult,
  AfterToolCallHookType,
  AgentFilter,
  BeforeHookResult,
  BeforeToolCallHookType,
  CallStatus,
  ContextPredicate,
  FrameworkCall,
  HookErrorPolicy,
  HookFunction,
  HookInfo,
  HookKind,
  HookOptions,
  LayerKind,
  NameMatcher,
  Next,
  Tool,
  ToolCallOutcome,
  ToolCallState,
  ToolExecuteOptions,
  ToolFilter,
  ToolInput,
  ToolInputSchema,
  ToolMiddleware,
  TraceAction,
  TraceEntry,
  Unregister,
} from "./types.js";
export type { WrappedExecuteOptions, WrappedTool } from "./wrap.js";
