import type { ToolCallHookContext } from "./context.js";
import { HookTimeoutError } from "./errors.js";
import { settle, type Then } from "./thenable.js";
import type { ContextPredicate, HookErrorPolicy, HookFunction, HookInfo, TraceEntry } from "./types.js";

/** A hook ready to run inside one chain. @internal */
export interface RuntimeHook {
  readonly name: string;
  readonly info: HookInfo;
  readonly fn: HookFunction;
  readonly policy: HookErrorPolicy;
  readonly timeoutMs: number | undefined;
  readonly predicates: readonly ContextPredicate[] | null;
  /** Frozen trace entries of the plain cases (no timing, reason or error), shared by every call. */
  readonly entries: (TraceEntry | undefined)[];
}

/** What the runners need from their `ToolHooks`. @internal */
export interface Runtime {
  readonly timing: boolean;
  hookFailed(ctx: ToolCallHookContext, hook: RuntimeHook, phase: "before" | "after", error: unknown): void;
  formatWithheld(toolName: string, reason: string): string;
  formatFailed(toolName: string, error: unknown): string;
  /** An after-hook returned something that is not a string: told every time, reports the first. */
  ignoredReturn(ctx: ToolCallHookContext, hook: RuntimeHook, value: unknown): void;
}

// Bounds an async hook by its timeoutMs; the hook itself goes on in the background.
function bounded(thenable: object, then: Then, h: RuntimeHook): Promise<unknown> {
  const ms = h.timeoutMs as number;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new HookTimeoutError(h.name, ms)), ms);
    settle(
      thenable,
      then,
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Waits for a hook's promise (bounded by its timeoutMs), then goes on with `ok` or `err`. @internal */
export function awaitHook<T>(
  thenable: object,
  then: Then,
  h: RuntimeHook,
  ok: (value: unknown) => T | PromiseLike<T>,
  err: (error: unknown) => T | PromiseLike<T>,
): Promise<T> {
  return h.timeoutMs === undefined ? settle(thenable, then, ok, err) : bounded(thenable, then, h).then(ok, err);
}
