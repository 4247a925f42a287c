import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ToolCallHookContext } from "./context.js";

/** The object a tool receives. Hooks mutate it in place. */
export type ToolInput = Record<string, unknown>;

/**
 * Per-call scratch space shared by the hooks of one call. Declare your own
 * fields by module augmentation so they are typed everywhere:
 *
 * @example
 * ```ts
 * declare module "@toolware/core" {
 *   interface ToolCallState {
 *     startedAt?: number;
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by module augmentation
export interface ToolCallState {}

/** What a tool's `execute` receives besides its input. */
export interface ToolExecuteOptions {
  /** Aborts when the caller cancels the call or a hook (such as a timeout) gives up on it. */
  readonly signal: AbortSignal;
  /** The id of the call, the same as `ctx.callId`. */
  readonly callId: string;
}

/**
 * A Standard Schema v1 validator (zod 4, valibot, arktype, …) whose output is a tool's input.
 * The schema's input type is left open: a framework hands over whatever the model sent.
 */
export type ToolInputSchema<I = unknown> = StandardSchemaV1<unknown, I>;

/**
 * The calling framework's own context for one call, given by an adapter in the bindings
 * (`{ framework: { name: "ai-sdk", context: executeOptions } }`) and read by hooks as
 * `ctx.framework`. Each adapter exports a typed reader that checks `name` first.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => ctx.framework?.name !== "my-framework" || ctx.agent !== undefined);
 * ```
 */
export interface FrameworkCall {
  /** The adapter's name, such as `"ai-sdk"` or `"mcp-server"`. */
  readonly name: string;
  /** What the framework passed for this call (execute options, MCP `extra`, …), as it passed it. */
  readonly context: unknown;
}

/** A tool as toolware sees it; make one with {@link defineTool}. */
export interface Tool<I extends object = ToolInput, O = unknown> {
  readonly name: string;
  readonly description?: string | undefined;
  /**
   * Validates the input before any hook sees it; its output is what hooks and the tool get.
   * Adapters hand it to frameworks (AI SDK `inputSchema`, MCP `registerTool`); `inputSchemaOf(tool)`
   * gives it typed. Its output type is left open here so that every tool still fits `Tool<never>`,
   * the type of "any tool" in filters (a schema typed by `I` would make `Tool` covariant in `I`).
   */
  readonly inputSchema?: ToolInputSchema | undefined;
  readonly tags: readonly string[];
  /** Marks tools that change or destroy data; guardrails can match on it. */
  readonly destructive: boolean;
  execute(input: I, options: ToolExecuteOptions): O | Promise<O>;
  formatResult?(raw: O): string;
}

/** Which layer a hook was registered on. */
export type LayerKind = "global" | "crew" | "agent";

/** What a hook does when it throws or times out. */
export type HookErrorPolicy = "block" | "continue" | "throw";

/** A tool or agent name matcher: an exact name, a glob such as `db_*`, or a RegExp. */
export type NameMatcher = string | RegExp;

/** Decides per call whether a hook applies. */
export type ContextPredicate = (ctx: ToolCallHookContext) => boolean;

/** Restricts a hook to some tools: names, globs, RegExps, tool objects, or a predicate. */
export type ToolFilter =
  | NameMatcher
  | Tool<never, unknown>
  | readonly (NameMatcher | Tool<never, unknown>)[]
  | ContextPredicate;

/** Restricts a hook to some agents by role: names, globs, RegExps, or a predicate. */
export type AgentFilter = NameMatcher | readonly NameMatcher[] | ContextPredicate;

/** Options every registration takes. */
export interface HookOptions {
  /** Shown in traces, errors and `explain()`; defaults to the function's name. */
  name?: string;
  /** Higher runs further out: earlier on the way in, later on the way out. Default 0. */
  priority?: number;
  tools?: ToolFilter;
  agents?: AgentFilter;
  /** Overrides the instance's `onHookError` for this hook. */
  onError?: HookErrorPolicy;
  /** Bounds the hook's own run; a middleware's time inside `next()` does not count. */
  timeoutMs?: number;
}

/** Result a before-hook may return: exactly `false` blocks the call. */
export type BeforeHookResult = boolean | undefined | void;
/** Result an after-hook may return: a string replaces the agent-facing result. */
export type AfterHookResult = string | undefined | void;

/**
 * Runs before the tool. Return exactly `false` (or call `ctx.block(reason)`) to block it.
 *
 * @example
 * ```ts
 * const noDeletes: BeforeToolCallHookType = (ctx) => ctx.toolName !== "delete_file";
 * ```
 */
export type BeforeToolCallHookType<I extends object = ToolInput, O = unknown> = (
  ctx: ToolCallHookContext<I, O>,
) => BeforeHookResult | Promise<BeforeHookResult>;

/**
 * Runs after the tool (and after a block). Return a string to replace `ctx.toolResult`.
 *
 * @example
 * ```ts
 * const shout: AfterToolCallHookType = (ctx) => ctx.toolResult?.toUpperCase();
 * ```
 */
export type AfterToolCallHookType<I extends object = ToolInput, O = unknown> = (
  ctx: ToolCallHookContext<I, O>,
) => AfterHookResult | Promise<AfterHookResult>;

/** The continuation a middleware awaits to run the rest of the chain and the tool. */
export type Next = () => Promise<void>;

/**
 * A Koa-style middleware around the tool call.
 *
 * @example
 * ```ts
 * const timer: ToolMiddleware = async (ctx, next) => {
 *   const start = Date.now();
 *   await next();
 *   console.log(ctx.toolName, Date.now() - start, "ms");
 * };
 * ```
 */
export type ToolMiddleware<I extends object = ToolInput, O = unknown> = (
  ctx: ToolCallHookContext<I, O>,
  next: Next,
) => Promise<void> | void;

/** The three kinds of hook. */
export type HookKind = "before" | "after" | "middleware";

/**
 * What `trace` says a hook did. Two actions are not decisions: `ignored-return` (an after-hook
 * returned something that is not a string, so the result stayed as it was) and `format-failed`
 * (the tool's own entry: it ran, but its result could not be turned into text).
 */
export type TraceAction =
  | "proceeded"
  | "modified-input"
  | "blocked"
  | "substituted"
  | "modified-result"
  | "failed"
  | "ignored-return"
  | "format-failed";

/** One hook that ran during a call, or the tool when its result could not be formatted. */
export interface TraceEntry {
  /** The hook's name; for the tool's own entry (`kind: "tool"`), the tool's name. */
  readonly hook: string;
  /** The hook's layer; `"global"` for the tool's own entry. */
  readonly layer: LayerKind;
  readonly kind: HookKind | "tool";
  /** `before`/`after` for the phase the hook acted in; middlewares that completed report `around`. */
  readonly phase: "before" | "after" | "around";
  readonly action: TraceAction;
  readonly reason?: string;
  readonly error?: unknown;
  /** Milliseconds the hook itself took; present when the instance has `timing: true`. */
  readonly durationMs?: number;
}

/** How a call ended. */
export type CallStatus = "ok" | "blocked" | "error";

/** What `invoke` resolves to. */
export interface ToolCallOutcome<O = unknown> {
  readonly status: CallStatus;
  /** The agent-facing string after every hook. */
  readonly result: string;
  /** What the tool (or a substitute) returned; `undefined` when it did not run. */
  readonly raw: O | undefined;
  /** Why the call was blocked, when a reason was given. */
  readonly reason?: string;
  /** The error behind an `error` status (or a failed hook that blocked). */
  readonly error?: unknown;
  readonly trace: readonly TraceEntry[];
  readonly callId: string;
  readonly toolName: string;
}

/** A registered hook as `list()` and `explain()` describe it. */
export interface HookInfo {
  readonly id: number;
  readonly name: string;
  readonly kind: HookKind;
  readonly layer: LayerKind;
  readonly priority: number;
  readonly onError: HookErrorPolicy | undefined;
  readonly timeoutMs: number | undefined;
  readonly tools: ToolFilter | undefined;
  readonly agents: AgentFilter | undefined;
  /** The pack the hook came from, if any. */
  readonly pack: string | undefined;
  /** True when a predicate decides per call whether it runs. */
  readonly conditional: boolean;
  readonly fn: HookFunction;
}

/** Any hook function. */
export type HookFunction = BeforeToolCallHookType | AfterToolCallHookType | ToolMiddleware;

/** Removes the registration(s) it was returned for; returns true if anything was removed. */
export type Unregister = () => boolean;
