import { ToolMessage } from "@langchain/core/messages";
import {
  type BindFunction,
  type OutcomeListener,
  type ToolCallHookContext,
  type ToolHooks,
  ToolwareError,
} from "@toolware/core";
import { createMiddleware, type ToolCallHandler, type ToolCallRequest } from "langchain";
import { runsFor } from "./nesting.js";
import type { AppToolInfo } from "./options.js";
import { checkAdapterOptions, durableKey } from "./options.js";
import { outcomeToToolMessage, type ToolCallResult, textOfResult } from "./outcome.js";
import { runCall } from "./run-call.js";

/**
 * One tool call of a `createAgent` agent, as `bind`, `onOutcome` and `langchainCall(ctx)` see it:
 * LangChain's own request (`toolCall`, `tool` — undefined for a dynamically registered tool —,
 * `state`, `runtime` with `context`, `signal`, `configurable`, ...).
 */
export type LangChainCall<
  TState extends Record<string, unknown> = Record<string, unknown>,
  TContext = unknown,
> = ToolCallRequest<TState, TContext>;

/** Options of {@link toolwareMiddleware}. */
export interface ToolwareMiddlewareOptions {
  /** The middleware's name in the agent (LangChain wants names unique). Default `"toolware"`. */
  name?: string;
  /** Picks the agent, task and crew of each call (from `runtime.context`, `state`, ...). A throw or a wrong value fails that call closed. */
  bind?: BindFunction<LangChainCall>;
  /** Told how every call ended; what it throws goes to the ToolHooks' `onListenerError`. */
  onOutcome?: OutcomeListener<LangChainCall, ToolCallResult>;
  /** toolware metadata LangChain tools do not carry, by tool name. */
  tools?: Readonly<Record<string, AppToolInfo>>;
}

const OPTION_KEYS = ["name", "bind", "onOutcome", "tools"] as const;

/**
 * The LangChain request behind a hook's context, when the call came through {@link toolwareMiddleware}.
 * The type parameters name the agent's state and context; they are not checked at run time.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => langchainCall<{}, { user: string }>(ctx)?.runtime.context?.user !== "guest");
 * ```
 */
export function langchainCall<TState extends Record<string, unknown> = Record<string, unknown>, TContext = unknown>(
  ctx: ToolCallHookContext,
): LangChainCall<TState, TContext> | undefined {
  const framework = ctx.framework;
  return framework?.name === "langchain" ? (framework.context as LangChainCall<TState, TContext>) : undefined;
}

/** Runs one `wrapToolCall` request through the chain. @internal */
export async function runRequest(
  hooks: ToolHooks,
  options: ToolwareMiddlewareOptions,
  tools: Readonly<Record<string, AppToolInfo>>,
  request: LangChainCall,
  handler: ToolCallHandler,
): Promise<ToolCallResult> {
  const { toolCall } = request;
  // A second toolware middleware of the same hooks inside this call's chain: the call is guarded already.
  if (runsFor(hooks, toolCall.name, toolCall.id)) return handler(request);
  const outcome = await runCall<LangChainCall, ToolCallResult>(hooks, {
    adapter: "@toolware/langchain",
    framework: "langchain",
    toolName: toolCall.name,
    description: typeof request.tool?.description === "string" ? request.tool.description : undefined,
    info: Object.hasOwn(tools, toolCall.name) ? tools[toolCall.name] : undefined,
    input: toolCall.args,
    callId: toolCall.id,
    key: durableKey(request.runtime?.configurable?.thread_id, toolCall.id),
    context: request,
    bind: options.bind,
    onOutcome: options.onOutcome,
    pass: {
      signal: request.runtime?.signal,
      run: async (args) => {
        const result = await handler({ ...request, toolCall: { ...toolCall, args } });
        // An unknown tool (or one LangChain itself failed) comes back as an error message: an error for the hooks.
        if (ToolMessage.isInstance(result) && result.status === "error") {
          throw new ToolwareError(
            "TOOLWARE_LANGCHAIN_TOOL_ERROR",
            `the tool reported an error: ${textOfResult(result)}`,
          );
        }
        return result;
      },
    },
  });
  return outcomeToToolMessage(outcome, toolCall);
}

/**
 * A `createAgent` middleware that runs every tool call, including those of dynamically registered
 * tools, through the hooks' chain: rewritten arguments reach the tool, a blocked call or a tool
 * error becomes a `ToolMessage` with `status: "error"` and the reason, redacted results reach the
 * model. First in `middleware: [...]` is outermost: put it first so that other tool middlewares
 * (retries, limits) run inside one toolware call. With {@link interruptHumanInput} and a
 * checkpointer, a hook's question (the approval pack) pauses the run; a resume finishes the same
 * call, so no hook counts it twice.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: [search], middleware: [toolwareMiddleware(hooks)] });
 * ```
 */
export function toolwareMiddleware(hooks: ToolHooks, options: ToolwareMiddlewareOptions = {}) {
  const tools = checkAdapterOptions("toolwareMiddleware()", hooks, options, OPTION_KEYS);
  return createMiddleware({
    name: options.name ?? "toolware",
    wrapToolCall: (request, handler) => runRequest(hooks, options, tools, request, handler),
  });
}
