import type { LayerKind, TraceAction, TraceEntry } from "@toolware/core";

/** One decision a hook took during a call, as logs and the audit trail record it. */
export interface HookDecision {
  readonly hook: string;
  readonly layer: LayerKind;
  readonly phase: TraceEntry["phase"];
  readonly action: Exclude<TraceAction, "proceeded">;
  readonly reason?: string;
}

/**
 * The decisions of a call's trace: every entry but the hooks that only proceeded, with reasons passed
 * through `text` (redaction, truncation) first.
 *
 * @example
 * ```ts
 * hookDecisions(ctx.trace, (reason) => truncate(reason, 200));
 * // [{ hook: "guardrails", layer: "global", phase: "before", action: "blocked", reason: "…" }]
 * ```
 */
export function hookDecisions(trace: readonly TraceEntry[], text: (reason: string) => string): HookDecision[] {
  const out: HookDecision[] = [];
  for (const entry of trace) {
    const action = entry.action;
    if (action === "proceeded") continue;
    const decision = { hook: entry.hook, layer: entry.layer, phase: entry.phase, action };
    out.push(entry.reason === undefined ? decision : { ...decision, reason: text(entry.reason) });
  }
  return out;
}
