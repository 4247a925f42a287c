import type { ToolCallHookContext } from "./context.js";
import type { Registration } from "./registration.js";
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

/** A registration as it runs in a chain: its policy resolved, per-call predicates only when it has some. @internal */
export function toRuntime(r: Registration, defaultPolicy: HookErrorPolicy): RuntimeHook {
  const predicates = r.filter.predicates.length > 0 ? r.filter.predicates : null;
  return {
    name: r.name,
    info: r.info,
    fn: r.fn,
    policy: r.onError ?? defaultPolicy,
    timeoutMs: r.timeoutMs,
    predicates,
    plain: predicates === null && r.timeoutMs === undefined,
    entries: [],
  };
}
