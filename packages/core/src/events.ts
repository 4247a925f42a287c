import type { ToolCallHookContext } from "./context.js";
import type { HookErrorPolicy, HookInfo, ToolCallOutcome } from "./types.js";

/** Events every hook layer emits. */
export interface RegistryEvents {
  "hook:added": HookInfo;
  "hook:removed": HookInfo;
}

/** Payloads of the events a `ToolHooks` emits. */
export interface ToolHooksEvents extends RegistryEvents {
  "call:start": { readonly ctx: ToolCallHookContext };
  "call:end": {
    readonly ctx: ToolCallHookContext;
    readonly outcome: ToolCallOutcome;
    readonly durationMs: number;
    /**
     * Present (true) when the call ended before any hook could run: its arguments were refused by an
     * adapter (`TOOLWARE_INVALID_INPUT`, a failing `bind`) or by the tool's input schema
     * (`TOOLWARE_INPUT_REJECTED`). Observers that record calls from their hooks record these here.
     */
    readonly refused?: true;
  };
  "call:blocked": {
    readonly ctx: ToolCallHookContext;
    readonly outcome: ToolCallOutcome;
    readonly reason: string | undefined;
  };
  /**
   * The call ended with status `error` (`outcome` set: the tool failed, or its result could not be
   * formatted), or a `"throw"` hook made `invoke` reject (`outcome` undefined).
   */
  "call:error": {
    readonly ctx: ToolCallHookContext;
    readonly error: unknown;
    readonly outcome: ToolCallOutcome | undefined;
  };
  "hook:error": {
    readonly ctx: ToolCallHookContext;
    readonly hook: HookInfo;
    readonly phase: "before" | "after";
    readonly error: unknown;
    readonly policy: HookErrorPolicy;
  };
  /**
   * An after-hook returned something that is not a string (an object, a number), so the result
   * stayed as it was. Emitted the first time each registered hook does it on this instance; the
   * call's trace records every time (action `ignored-return`).
   */
  "hook:ignored-return": { readonly ctx: ToolCallHookContext; readonly hook: HookInfo; readonly value: unknown };
}
