import type { ToolCallHookContext } from "./context.js";
import type { ContextPredicate, HookErrorPolicy, HookFunction, HookInfo, TraceEntry } from "./types.js";

/** The phases a hook acts in; a middleware that completed reports `around`. @internal */
export type Phase = "before" | "after" | "around";

/** A hook ready to run inside one chain. @internal */
export interface RuntimeHook {
  readonly name: string;
  readonly info: HookInfo;
  readonly fn: HookFunction;
  readonly policy: HookErrorPolicy;
  readonly timeoutMs: number | undefined;
  readonly predicates: readonly ContextPredicate[] | null;
  /** No per-call predicate and no time limit: the runners' fast path applies (without `timing`). */
  readonly plain: boolean;
  /** Frozen trace entries of the plain cases (no timing, reason or error), shared by every call. */
  readonly entries: (TraceEntry | undefined)[];
  /** The entries the runners' fast paths push, made with the hook: a field load instead of a slot lookup per call. */
  readonly beforeProceeded: TraceEntry;
  readonly afterProceeded: TraceEntry;
}

/** What the runners need from their `ToolHooks`. @internal */
export interface Runtime {
  readonly timing: boolean;
  hookFailed(ctx: ToolCallHookContext, hook: RuntimeHook, phase: "before" | "after", error: unknown): void;
  /** An after-hook returned something that is not a string: told every time, reports the first. */
  ignoredReturn(ctx: ToolCallHookContext, hook: RuntimeHook, value: unknown): void;
}

/** The clock of hook durations and time limits. @internal */
export const now = (): number => performance.now();
