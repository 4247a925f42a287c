import {
  type BindFunction,
  claimGuard,
  type OutcomeListener,
  type ToolCallHookContext,
  ToolHooks,
  ToolwareTypeError,
} from "@toolware/core";
import {
  checkExtraHooks,
  composeHooks,
  guardAgentMethods,
  type MastraAgentLike,
  type MastraToolHooks,
} from "./agent.js";
import { Approvals, type MastraApprovalAnswer } from "./approvals.js";
import type { MastraCall } from "./call.js";
import { ChainRunner, type HookCall, type Skip } from "./chain.js";
import { checkOptions } from "./options.js";

/** What the app says about a tool that Mastra cannot: what guards and selectors read. */
export interface MastraToolInfo {
  destructive?: boolean;
  tags?: readonly string[];
}

/** Options of {@link mastraToolware}. */
export interface MastraToolwareOptions {
  /** Picks the agent, task and crew of each call (from `call.metadata`, `call.context.requestContext`, …). A throw fails the call closed. */
  bind?: BindFunction<MastraCall>;
  /** Told how every call that ran its chain ended; what it throws goes to the ToolHooks' `onListenerError`. */
  onOutcome?: OutcomeListener<MastraCall>;
  /** Per tool name: `destructive` and `tags` for guards and selectors. */
  tools?: Readonly<Record<string, MastraToolInfo>>;
}

/** A Mastra output processor that only handles tool results (`processToolResult`). */
export interface MastraResultProcessor {
  readonly id: string;
  processToolResult(args: {
    toolCallId: string;
    toolName: string;
    args: unknown;
    messageList: { updateToolInvocation(part: never): boolean };
  }): void;
}

/** What {@link mastraToolware} returns: the pieces an agent is built with. */
export interface MastraToolware {
  /** The agent's `hooks`: `beforeToolCall` / `afterToolCall` running the chain. */
  readonly hooks: MastraToolHooks;
  /** For the agent's `outputProcessors`: the model reads the chain's result (redacted, …), not the tool's own. */
  readonly processor: MastraResultProcessor;
  /** For the approval pack's `external` option: asks through Mastra's `approveToolCall` / `declineToolCall`. */
  readonly approval: (ctx: ToolCallHookContext) => Promise<MastraApprovalAnswer>;
  /** Your own hooks run with the chain (for `generate(…, { hooks })`, where Mastra would replace the agent's). */
  with(extra: MastraToolHooks): MastraToolHooks;
  /** Checks that the agent was built with these hooks and lets its approveToolCall / declineToolCall answer the chain. */
  agent<A extends MastraAgentLike>(agent: A): A;
}

/**
 * Runs every tool call of Mastra agents through the hooks' chain, from Mastra's agent-level
 * `beforeToolCall` / `afterToolCall`: a block skips the tool (`{ proceed: false, output }`) and the
 * model reads the reason; rewritten arguments reach the tool; the tool's result goes through the
 * after-hooks, and `processor` makes the model read what they made of it. An approval pack with
 * `external: tw.approval` asks through Mastra's own suspension, answered by `approveToolCall` /
 * `declineToolCall`, each "yes" bound to its call and taken once.
 *
 * @example
 * ```ts
 * const tw = mastraToolware(hooks);
 * const agent = tw.agent(new Agent({ id, name, instructions, model, tools, hooks: tw.hooks, outputProcessors: [tw.processor] }));
 * ```
 */
export function mastraToolware(hooks: ToolHooks, options: MastraToolwareOptions = {}): MastraToolware {
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "mastraToolware() needs a ToolHooks as its first argument",
    );
  }
  const checked = checkOptions<MastraToolwareOptions>(options);
  const runner = new ChainRunner(hooks, checked);
  const made = new WeakSet<object>();
  const approvals = new Approvals((call) => runner.owns(call));
  runner.waiting = (call) => approvals.waiting(call);
  const chainHooks: MastraToolHooks = {
    beforeToolCall: (hc) => runner.before(hc as HookCall) as Promise<Skip | undefined>,
    afterToolCall: (hc) => runner.after(hc as HookCall),
  };
  claimGuard(chainHooks, hooks, "TOOLWARE_MASTRA_ALREADY_GUARDED", "these Mastra hooks");
  made.add(chainHooks);
  const processor: MastraResultProcessor = {
    id: "toolware",
    processToolResult({ toolCallId, toolName, args, messageList }) {
      const output = runner.takeReplacement(toolCallId, toolName);
      if (output === undefined) return;
      const part = {
        type: "tool-invocation",
        toolInvocation: { state: "result", toolCallId, toolName, args, result: output },
      };
      messageList.updateToolInvocation(part as never);
    },
  };
  const withChain = (extra: MastraToolHooks): MastraToolHooks => {
    checkExtraHooks(extra);
    const composed = composeHooks(runner, extra);
    claimGuard(composed, hooks, "TOOLWARE_MASTRA_ALREADY_GUARDED", "these Mastra hooks");
    made.add(composed);
    return composed;
  };
  return {
    hooks: chainHooks,
    processor,
    approval: approvals.answer,
    with: withChain,
    agent: (agent) => guardAgentMethods(agent, hooks, made, approvals, runner, processor, withChain),
  };
}
