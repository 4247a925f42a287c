import {
  type ApprovalBinding,
  type BindFunction,
  bindApproval,
  bindCall,
  type CallBindings,
  defineTool,
  failedOutcome,
  messageOf,
  notifyOutcome,
  type OutcomeListener,
  type ToolCallOutcome,
  type ToolHooks,
  toolwareCode,
} from "@toolware/core";
import { type Pass, runDurable } from "./durable.js";
import type { AppToolInfo } from "./options.js";
import { bubbleUpOf, textOfResult } from "./outcome.js";

/** The framework names this adapter gives `ctx.framework`. */
export type LangChainFrameworkName = "langchain" | "langchain-tool";

/** One call as the adapter runs it. @internal */
export interface CallPlan<C, R> {
  readonly adapter: string;
  readonly framework: LangChainFrameworkName;
  readonly toolName: string;
  readonly description: string | undefined;
  readonly info: AppToolInfo | undefined;
  readonly input: Record<string, unknown>;
  readonly callId: string | undefined;
  readonly key: string | undefined;
  readonly context: C;
  readonly pass: Pass<R>;
  readonly bind: BindFunction<C> | undefined;
  readonly onOutcome: OutcomeListener<C, R> | undefined;
}

// Errors invoke throws before any hook runs (a call id, tool name or arguments it refuses, e.g. an own
// "__proto__" key the model sent): the call fails closed instead of crashing the agent's loop.
const REFUSED = new Set([
  "TOOLWARE_INVALID_BINDINGS",
  "TOOLWARE_INVALID_TOOL",
  "TOOLWARE_INVALID_ARGUMENT",
  "TOOLWARE_INVALID_INPUT",
]);

// The call a waiting chain must be to be joined on resume: tool, id and the model's arguments.
function bindingOf<C, R>(plan: CallPlan<C, R>): ApprovalBinding | undefined {
  if (plan.callId === undefined) return undefined;
  try {
    return bindApproval(plan.toolName, plan.callId, plan.input);
  } catch {
    return undefined;
  }
}

function failed<R>(toolName: string, callId: string, error: unknown): ToolCallOutcome<R> {
  const cause = error instanceof Error && error.cause !== undefined ? `: ${messageOf(error.cause)}` : "";
  const code = toolwareCode(error) ?? "TOOLWARE_BIND_FAILED";
  return failedOutcome(toolName, callId, error, `${messageOf(error)}${cause} (${code})`) as ToolCallOutcome<R>;
}

/**
 * Runs one LangChain tool call through the chain (kept across LangGraph resumes by its key) and
 * tells `onOutcome`.
 * Rejects only with LangGraph's own control flow (an interrupt) or for a "throw"-policy hook.
 *
 * @internal
 */
export async function runCall<C, R>(hooks: ToolHooks, plan: CallPlan<C, R>): Promise<ToolCallOutcome<R>> {
  let outcome: ToolCallOutcome<R>;
  try {
    const who = bindCall(plan.bind, plan.context, plan.adapter);
    outcome = await runDurable<R>(hooks, plan.key, bindingOf(plan), plan.pass, (call) => {
      call.owner = { toolName: plan.toolName, callId: plan.callId };
      const tool = defineTool({
        name: plan.toolName,
        description: plan.description,
        destructive: plan.info?.destructive === true,
        tags: [...(plan.info?.tags ?? [])],
        formatResult: textOfResult,
        execute: (input: Record<string, unknown>) => call.pass.run(input),
      });
      const bindings: CallBindings = {
        ...who,
        signal: call.controller.signal,
        framework: { name: plan.framework, context: plan.context },
      };
      if (plan.callId !== undefined) bindings.callId = plan.callId;
      return hooks.invoke(tool, plan.input, bindings);
    });
  } catch (error) {
    const code = toolwareCode(error);
    if (code !== "TOOLWARE_BIND_FAILED" && (code === undefined || !REFUSED.has(code))) throw error;
    outcome = failed(plan.toolName, plan.callId ?? "", error);
  }
  const bubble = bubbleUpOf(outcome);
  if (bubble !== undefined) throw bubble;
  notifyOutcome(hooks, `${plan.adapter}.onOutcome`, plan.onOutcome, outcome, plan.context);
  return outcome;
}
