import type { ToolCallHookContext } from "./context.js";
import { now, type Phase, type Runtime, type RuntimeHook } from "./runtime.js";
import type { TraceAction, TraceEntry } from "./types.js";

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

/** The frozen entry of hook `h` for a plain (phase, action): made on first use, then shared by every call. @internal */
export function sharedEntry(
  h: Pick<RuntimeHook, "name" | "info" | "entries">,
  phase: Phase,
  action: TraceAction,
): TraceEntry {
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
  return entry;
}

/** Adds what hook `h` did to the call's trace. @internal */
export function record(
  rt: Runtime,
  ctx: ToolCallHookContext,
  h: RuntimeHook,
  phase: Phase,
  action: TraceAction,
  t0: number,
  error?: unknown,
  reason?: string,
): void {
  const why = reason ?? (action === "blocked" ? ctx._reason : undefined);
  const as = ctx._traceAs;
  if (as !== undefined) ctx._traceAs = undefined;
  if (!rt.timing && why === undefined && error === undefined && as === undefined) {
    // The common entries never differ between calls: one frozen object per hook, phase and action.
    ctx._trace.push(sharedEntry(h, phase, action));
    return;
  }
  ctx._trace.push({
    hook: as ?? h.name,
    layer: h.info.layer,
    kind: h.info.kind,
    phase,
    action,
    reason: why,
    error,
    durationMs: rt.timing ? now() - t0 : undefined,
  });
}
