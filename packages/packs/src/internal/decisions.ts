import type { LayerKind, TraceAction, TraceEntry } from "@toolware/core";

/** One decision a hook took during a call, as logs and the audit trail record it. */
export interface HookDecision {
  readonly hook: string;
  readonly layer: LayerKind;
  readonly phase: TraceEntry["phase"];
  /** `proceeded` only for the policy rule (`policy:<rule>`) that decided the call and let it through. */
  readonly action: TraceAction;
  readonly reason?: string;
}

/**
 * The decisions of a call's trace: every entry but the hooks that only proceeded (except `decider`, the entry
 * of the policy rule that decided the call), with reasons passed through `text` (redaction, truncation) first.
 *
 * @example
 * ```ts
 * hookDecisions(ctx.trace, (reason) => truncate(reason, 200));
 * // [{ hook: "guardrails", layer: "global", phase: "before", action: "blocked", reason: "…" }]
 * ```
 */
export function hookDecisions(
  trace: readonly TraceEntry[],
  text: (reason: string) => string,
  decider?: string,
): HookDecision[] {
  const out: HookDecision[] = [];
  for (const entry of trace) {
    const action = entry.action;
    // A policy's deciding rule is named even when it allowed the call (or a person approved it): every audited
    // call carries the rule that decided it. Other hooks that only proceeded decided nothing.
    if (action === "proceeded" && !(decider !== undefined && entry.phase === "before" && entry.hook === decider))
      continue;
    const decision = { hook: entry.hook, layer: entry.layer, phase: entry.phase, action };
    out.push(entry.reason === undefined ? decision : { ...decision, reason: text(entry.reason) });
  }
  return out;
}

/**
 * The trace name of the policy rule that decided the call (`ctx.state.policy.rule`, as `@toolware/policy` sets it):
 * its entry is kept even when it let the call through, so every audited call names its rule. @internal
 */
export function policyDecider(state: object): string | undefined {
  const decision = (state as { readonly policy?: unknown }).policy;
  if (decision === null || typeof decision !== "object") return undefined;
  const rule = (decision as { rule?: unknown }).rule;
  return typeof rule === "string" ? `policy:${rule}` : undefined;
}
