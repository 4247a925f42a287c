import { AsyncLocalStorage } from "node:async_hooks";
import type { RunContext } from "@openai/agents";
import {
  digestArguments,
  type HumanInputProvider,
  HumanInputUnavailableError,
  type ToolHooks,
  ToolwareTypeError,
} from "@toolware/core";

interface LiveCall {
  readonly toolName: string;
  readonly callId: string;
  readonly runContext: RunContext<unknown>;
  /** The model's arguments (JSON text), as the SDK showed them in the interruption the person approved. */
  readonly arguments: string;
}

// Digested only when a question is asked: most calls never are.
function digestOf(text: string): string | undefined {
  try {
    return digestArguments(text.trim() === "" ? {} : JSON.parse(text));
  } catch {
    return undefined;
  }
}

// The guarded call whose chain runs here, with the run state its approval was decided in. Looked up
// by async context, not by id: any other call could carry the same id and borrow the approval.
const current = new AsyncLocalStorage<LiveCall>();
const providers = new WeakSet<HumanInputProvider>();

/** Runs a guarded call's chain as that call, so its questions read its own run state. @internal */
export function asCall<T>(call: LiveCall, run: () => T): T {
  return current.run(call, run);
}

/** Whether the hooks ask their questions through {@link openAIAgentsApprovals}, so asks become interruptions. @internal */
export function asksThroughRunState(hooks: ToolHooks): boolean {
  return providers.has(hooks.humanInput);
}

/** Options of {@link openAIAgentsApprovals}. */
export interface OpenAIAgentsApprovalsOptions {
  /** Answers questions of calls that did not come through a guarded agent. Default: none (they fail closed). */
  fallback?: HumanInputProvider;
}

/**
 * A human-input provider that makes the approval pack use the SDK's own durable approvals. A guarded
 * tool whose chain holds the approval pack answers the SDK's `needsApproval` with true, so the run
 * stops with an interruption and its state can be serialised; `state.approve(item)` then makes the
 * pack's question answer "yes" when the call runs, and `state.reject(item, { message })` sends the
 * message to the model without running the chain. A question with no decision in the run state (or
 * from a call outside a guarded agent, without `fallback`) throws `HumanInputUnavailableError`,
 * which the approval pack turns into a denial.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
 * hooks.use(approval({ tools: ["delete_file"] }));
 * guardAgent(agent, hooks);
 * ```
 */
export function openAIAgentsApprovals(options: OpenAIAgentsApprovalsOptions = {}): HumanInputProvider {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "openAIAgentsApprovals() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (key !== "fallback") {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `openAIAgentsApprovals(): unknown option \`${key}\` (allowed: fallback)`,
      );
    }
  }
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== "function") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      "openAIAgentsApprovals(): `fallback` must be a human-input provider",
    );
  }
  const provider: HumanInputProvider = async function openAIAgentsRunState(request) {
    const call = current.getStore();
    if (call === undefined || call.callId !== request.callId || call.toolName !== request.toolName) {
      if (fallback !== undefined) return fallback(request);
      throw new HumanInputUnavailableError(
        `cannot ask "${request.prompt}": the call did not come through a guarded OpenAI agent (pass a fallback provider)`,
      );
    }
    if (call.runContext.isToolApproved({ toolName: call.toolName, callId: call.callId }) !== true) {
      throw new HumanInputUnavailableError(
        `the run state holds no approval for ${request.toolName} (call ${request.callId}); approve it with state.approve(item)`,
      );
    }
    // The person approved the model's arguments: a hook before the gate that changed them gets no "yes".
    const binding = request.binding;
    const approved = digestOf(call.arguments);
    if (binding === undefined || approved === undefined || binding.digest !== approved) {
      throw new HumanInputUnavailableError(
        `the run state's approval of ${request.toolName} (call ${request.callId}) was given for the model's arguments, and hooks before the approval changed them; register the approval before hooks that rewrite arguments`,
      );
    }
    return "yes";
  };
  providers.add(provider);
  return provider;
}
