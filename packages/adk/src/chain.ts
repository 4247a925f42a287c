import type { BaseTool, Context } from "@google/adk";
import {
  type BindFunction,
  bindCall,
  defineTool,
  HookFailedError,
  notifyOutcome,
  type OutcomeListener,
  readArguments,
  refusedOutcome,
  type Tool,
  type ToolCallOutcome,
  type ToolHooks,
} from "@toolware/core";
import { asCall } from "./approvals.js";
import { type AdkCall, FRAMEWORK_NAME } from "./call.js";

/** What the app says about a tool that ADK's BaseTool cannot: what guards and selectors read. */
export interface AdkToolInfo {
  destructive?: boolean;
  tags?: readonly string[];
}

/** What one guarded call needs to know of its plugin. @internal */
export interface ChainOptions {
  readonly hooks: ToolHooks;
  readonly bind?: BindFunction<AdkCall> | undefined;
  readonly onOutcome?: OutcomeListener<AdkCall> | undefined;
  readonly tools?: Readonly<Record<string, AdkToolInfo>> | undefined;
}

/** One call's chain, started: its outcome (which rejects only for a "throw"-policy hook) and the tool the hooks saw. @internal */
export interface Started {
  readonly outcome: Promise<ToolCallOutcome>;
  readonly facts: Tool<never, unknown>;
}

export const ADAPTER = "@toolware/adk toolwarePlugin";

/**
 * Runs one ADK call through the chain, `execute` standing for the tool. Never throws; a call that
 * cannot start (arguments that are not an object, a failing `bind`) ends as a refused outcome. @internal
 */
export function startChain(
  options: ChainOptions,
  tool: BaseTool,
  toolArgs: unknown,
  toolContext: Context,
  execute: (args: Record<string, unknown>, signal: AbortSignal) => unknown,
): Started {
  const { hooks } = options;
  const name = String(tool.name);
  const info = Object.hasOwn(options.tools ?? {}, name) ? (options.tools?.[name] ?? {}) : {};
  const facts = defineTool({
    name,
    description: typeof tool.description === "string" ? tool.description : "",
    destructive: info.destructive === true,
    tags: [...(info.tags ?? [])],
    execute: (args: Record<string, unknown>, { signal }) => execute(args, signal),
  }) as Tool<never, unknown>;
  const callId = typeof toolContext.functionCallId === "string" ? toolContext.functionCallId : "";
  let call: AdkCall = { toolName: name, callId, input: {}, tool, toolContext, agentName: toolContext.agentName };
  let started = false;
  const run = async (): Promise<ToolCallOutcome> => {
    try {
      const input = readArguments(name, toolArgs);
      call = { ...call, input };
      const bound = bindCall(options.bind, call, ADAPTER);
      started = true;
      const outcome = await asCall({ toolName: name, callId, tool, toolContext }, () =>
        hooks.invoke(facts as Tool<Record<string, unknown>, unknown>, input, {
          ...bound,
          signal: toolContext.abortSignal,
          ...(callId === "" ? {} : { callId }),
          framework: { name: FRAMEWORK_NAME, context: call },
        }),
      );
      notifyOutcome(hooks, "adk.onOutcome", options.onOutcome, outcome, call);
      return outcome;
    } catch (error) {
      // Only a "throw"-policy hook fails the run: the app asked for it.
      if (error instanceof HookFailedError) throw error;
      const outcome = refusedOutcome(hooks, ADAPTER, name, callId, error, started ? undefined : { input: toolArgs });
      notifyOutcome(hooks, "adk.onOutcome", options.onOutcome, outcome, call);
      return outcome;
    }
  };
  return { outcome: run(), facts };
}
