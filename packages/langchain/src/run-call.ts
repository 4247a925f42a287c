import {
  type ApprovalBinding,
  type BindFunction,
  bindApproval,
  bindCall,
  type CallBindings,
  defineTool,
  HookFailedError,
  notifyOutcome,
  type OutcomeListener,
  readArguments,
  refusedOutcome,
  type ToolCallOutcome,
  type ToolHooks,
} from "@toolware/core";
import { type Pass, runDurable } from "./durable.js";
import { within } from "./nesting.js";
import type { AppToolInfo } from "./options.js";
import { bubbleUpOf, isBubbleUp, textOfResult } from "./outcome.js";

/** The framework names this adapter gives `ctx.framework`. */
export type LangChainFrameworkName = "langchain" | "langchain-tool";

/** One call as the adapter runs it. @internal */
export interface CallPlan<C, R> {
  readonly adapter: string;
  readonly framework: LangChainFrameworkName;
  readonly toolName: string;
  readonly description: string | undefined;
  readonly info: AppToolInfo | undefined;
  /** The arguments as the framework handed them: anything but an object ends the call `TOOLWARE_INVALID_INPUT`. */
  readonly input: unknown;
  readonly callId: string | undefined;
  readonly key: string | undefined;
  readonly context: C;
  readonly pass: Pass<R>;
  readonly bind: BindFunction<C> | undefined;
  readonly onOutcome: OutcomeListener<C, R> | undefined;
}

// The call a waiting chain must be to be joined on resume: tool, id and the model's arguments.
function bindingOf<C, R>(plan: CallPlan<C, R>): ApprovalBinding | undefined {
  if (plan.callId === undefined) return undefined;
  try {
    return bindApproval(plan.toolName, plan.callId, plan.input);
  } catch {
    return undefined;
  }
}

/**
 * Runs one LangChain tool call through the chain (kept across LangGraph resumes by its key) and
 * tells `onOutcome`. A call that cannot start (arguments that are not an object, a failing `bind`,
 * bindings or registrations the core refuses) ends as an error with its code, the tool not run.
 * Rejects only with LangGraph's own control flow (an interrupt) or for a "throw"-policy hook.
 *
 * @internal
 */
export async function runCall<C, R>(hooks: ToolHooks, plan: CallPlan<C, R>): Promise<ToolCallOutcome<R>> {
  let outcome: ToolCallOutcome<R>;
  let started = false;
  try {
    const input = readArguments(plan.toolName, plan.input);
    const who = bindCall(plan.bind, plan.context, plan.adapter);
    started = true;
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
      return within(hooks, plan.toolName, plan.callId, () => hooks.invoke(tool, input, bindings));
    });
  } catch (error) {
    if (error instanceof HookFailedError || isBubbleUp(error)) throw error;
    // A call that never reached the chain is told to the ToolHooks' listeners (the audit among them) here.
    const refused = started ? undefined : { input: plan.input };
    outcome = refusedOutcome(
      hooks,
      plan.adapter,
      plan.toolName,
      plan.callId ?? "",
      error,
      refused,
    ) as ToolCallOutcome<R>;
  }
  const bubble = bubbleUpOf(outcome);
  if (bubble !== undefined) throw bubble;
  notifyOutcome(hooks, `${plan.adapter}.onOutcome`, plan.onOutcome, outcome, plan.context);
  return outcome;
}
