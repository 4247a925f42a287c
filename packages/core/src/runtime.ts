import type { ToolCallHookContext } from "./context.js";
import type { ContextPredicate, HookErrorPolicy, HookFunction, HookInfo, TraceAction, TraceEntry } from "./types.js";

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

type Ctx = ToolCallHookContext;
type Phase = "before" | "after" | "around";

/** @internal */
export const now = (): number => performance.now();

// Slot of a (phase, action) pair in RuntimeHook.entries; compares interned strings, no keyed lookups.
function slotOf(phase: Phase, action: TraceAction): number {
  const base = phase === "before" ? 0 : phase === "after" ? 8 : 16;
  switch (action) {
    case "proceeded":
      return base;
    case "modified-input":
      return base + 1;
    case "blocked":
      return base + 2;
    case "substituted":
      return base + 3;
    case "modified-result":
      return base + 4;
    case "failed":
      return base + 5;
    case "ignored-return":
      return base + 6;
    default:
      return base + 7;
  }
}

/** @internal */
export function record(
  rt: Runtime,
  ctx: Ctx,
  h: RuntimeHook,
  phase: Phase,
  action: TraceAction,
  t0: number,
  error?: unknown,
  reason?: string,
): void {
  const why = reason ?? (action === "blocked" ? ctx._reason : undefined);
  if (!rt.timing && why === undefined && error === undefined) {
    // The common entries never differ between calls: one frozen object per hook, phase and action.
    const slot = slotOf(phase, action);
    let entry = h.entries[slot];
    if (entry === undefined) {
      entry = Object.freeze({
        hook: h.name,
        layer: h.info.layer,
        kind: h.info.kind,
        phase,
        action,
        reason: undefined,
        error: undefined,
        durationMs: undefined,
      });
      h.entries[slot] = entry;
    }
    ctx._trace.push(entry);
    return;
  }
  ctx._trace.push({
    hook: h.name,
    layer: h.info.layer,
    kind: h.info.kind,
    phase,
    action,
    reason: why,
    error,
    durationMs: rt.timing ? now() - t0 : undefined,
  });
}
