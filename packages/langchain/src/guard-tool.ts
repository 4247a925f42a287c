import { ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import type { StructuredToolInterface, ToolRunnableConfig } from "@langchain/core/tools";
import {
  type BindFunction,
  claimGuard,
  type OutcomeListener,
  type ToolCallHookContext,
  type ToolHooks,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
import { runsFor } from "./nesting.js";
import { checkAdapterOptions, durableKey } from "./options.js";
import { unchanged } from "./outcome.js";
import { runCall } from "./run-call.js";

/** One call of a tool guarded with {@link guardTool}, as `bind`, `onOutcome` and `langchainToolCall(ctx)` see it. */
export interface LangChainToolCall {
  readonly toolName: string;
  /** The arguments after LangChain's schema parsed them. */
  readonly input: unknown;
  /** The model's tool call when the tool was invoked with one (a ToolNode, an agent), else undefined. */
  readonly toolCall: ToolCall | undefined;
  /** The run's config: `configurable` (thread_id), `signal`, `context`, ... */
  readonly config: ToolRunnableConfig | undefined;
}

/** Options of {@link guardTool}. */
export interface GuardToolOptions {
  bind?: BindFunction<LangChainToolCall>;
  onOutcome?: OutcomeListener<LangChainToolCall, unknown>;
  /** toolware metadata LangChain tools do not carry. */
  destructive?: boolean;
  tags?: readonly string[];
}

const OPTION_KEYS = ["bind", "onOutcome", "destructive", "tags"] as const;
type RawCall = (arg: unknown, runManager: unknown, config: ToolRunnableConfig | undefined) => Promise<unknown>;

/**
 * The call behind a hook's context, when it came through a {@link guardTool}-ed tool.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => langchainToolCall(ctx)?.config?.configurable?.thread_id !== undefined);
 * ```
 */
export function langchainToolCall(ctx: ToolCallHookContext): LangChainToolCall | undefined {
  const framework = ctx.framework;
  return framework?.name === "langchain-tool" ? (framework.context as LangChainToolCall) : undefined;
}

/**
 * Runs every call of this LangChain tool through the hooks' chain, in place (its type, schema and
 * fields stay), for paths outside `createAgent`'s middleware: a LangGraph `ToolNode`, a direct
 * `tool.invoke(...)`. Called with a tool call (ToolNode), a blocked call or an error resolves to a
 * `ToolMessage` with `status: "error"`; called with plain arguments it rejects with
 * `TOOLWARE_LANGCHAIN_CALL_BLOCKED` / `TOOLWARE_LANGCHAIN_CALL_FAILED`. Inside an agent that has
 * {@link toolwareMiddleware} on the same hooks, the chain runs once (in the middleware).
 *
 * @example
 * ```ts
 * const node = new ToolNode([guardTool(search, hooks)]);
 * ```
 */
export function guardTool<T extends StructuredToolInterface>(
  tool: T,
  hooks: ToolHooks,
  options: GuardToolOptions = {},
): T {
  const raw: unknown = tool === null || typeof tool !== "object" ? undefined : Reflect.get(tool, "_call");
  if (typeof raw !== "function" || typeof tool.name !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "guardTool() needs a LangChain tool (a StructuredTool, such as one made with tool() from @langchain/core/tools)",
    );
  }
  checkAdapterOptions("guardTool()", hooks, options, OPTION_KEYS);
  const info = checkAdapterOptions(
    "guardTool()",
    hooks,
    { tools: { [tool.name]: { destructive: options.destructive, tags: options.tags } } },
    ["tools"],
  )[tool.name];
  claimGuard(tool, hooks, "TOOLWARE_LANGCHAIN_ALREADY_GUARDED", `the tool ${tool.name}`);
  const original = raw as RawCall;
  const name = tool.name;
  const description = typeof tool.description === "string" ? tool.description : undefined;
  const artifact = Reflect.get(tool, "responseFormat") === "content_and_artifact";

  async function guardedCall(this: unknown, arg: unknown, runManager: unknown, config: ToolRunnableConfig | undefined) {
    const toolCall = config?.toolCall;
    // Already inside this stack's chain for this very call (the middleware's): run plain, one chain per call.
    if (runsFor(hooks, name, toolCall?.id)) return original.call(this, arg, runManager, config);
    const isObject = arg !== null && typeof arg === "object" && !Array.isArray(arg);
    const call: LangChainToolCall = { toolName: name, input: arg, toolCall, config };
    const outcome = await runCall<LangChainToolCall, unknown>(hooks, {
      adapter: "@toolware/langchain guardTool",
      framework: "langchain-tool",
      toolName: name,
      description,
      info,
      input: isObject ? (arg as Record<string, unknown>) : { input: arg },
      callId: toolCall?.id,
      key: durableKey(config?.configurable?.thread_id, toolCall?.id),
      context: call,
      bind: options.bind,
      onOutcome: options.onOutcome,
      pass: {
        signal: config?.signal,
        run: (args) => original.call(this, isObject ? args : args.input, runManager, config),
      },
    });
    if (outcome.status === "ok") {
      if (unchanged(outcome)) return outcome.raw;
      // The artifact could still carry what the hooks removed.
      return artifact ? [outcome.result, undefined] : outcome.result;
    }
    if (toolCall?.id !== undefined) {
      const message = new ToolMessage({ content: outcome.result, tool_call_id: toolCall.id, name, status: "error" });
      return artifact ? [message, undefined] : message;
    }
    if (outcome.status === "blocked") {
      throw new ToolwareError("TOOLWARE_LANGCHAIN_CALL_BLOCKED", outcome.result);
    }
    throw new ToolwareError("TOOLWARE_LANGCHAIN_CALL_FAILED", outcome.result, { cause: outcome.error });
  }
  Object.defineProperty(tool, "_call", { value: guardedCall, configurable: true, writable: true });
  return tool;
}
