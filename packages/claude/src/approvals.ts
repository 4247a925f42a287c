import { AsyncLocalStorage } from "node:async_hooks";
import { type HumanInputProvider, type HumanInputRequest, HumanInputUnavailableError } from "@toolware/core";

/** A call whose chain runs in a `PreToolUse` hook, and how its question reaches Claude Code. @internal */
export interface LiveCall {
  readonly toolName: string;
  readonly callId: string;
  /** Hands the question to Claude Code's permission flow; resolves to the answer `canUseTool` gives. */
  ask(request: HumanInputRequest): Promise<string>;
}

// Looked up by async context, not by id: another call carrying the same id cannot take this call's question.
const current = new AsyncLocalStorage<LiveCall>();

/** Runs a call's chain as that call, so its questions reach its own `PreToolUse` answer. @internal */
export function asCall<T>(call: LiveCall, run: () => T): T {
  return current.run(call, run);
}

/**
 * A human-input provider that asks through Claude Code's own permission flow: when the approval pack (or a policy's
 * `decide: approve` rule) asks about a call, the `PreToolUse` hook answers `permissionDecision: "ask"` with the
 * question as its reason. Claude Code then asks: the Agent SDK calls `canUseTool`, whose answer (bound to the call's
 * tool, `toolUseID` and arguments, taken once) goes back to the approval pack, and the rest of the chain runs.
 * A question from a call that did not come through {@link toolwareHooks} throws `HumanInputUnavailableError`, which
 * the approval pack turns into a denial.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: claudeApprovals() });
 * hooks.use(approval({ tools: ["Bash"] }));
 * const { hooks: sdkHooks, canUseTool } = toolwareHooks(hooks, { canUseTool: askTheUser });
 * ```
 */
export function claudeApprovals(): HumanInputProvider {
  return function claudePermissionFlow(request) {
    const call = current.getStore();
    if (call === undefined || call.callId !== request.callId || call.toolName !== request.toolName) {
      return Promise.reject(
        new HumanInputUnavailableError(
          `cannot ask "${request.prompt}": the call did not come through toolwareHooks() (Claude Agent SDK)`,
        ),
      );
    }
    return call.ask(request);
  };
}
