import { type HookSpec, normalizeName, type ToolCallHookContext, ToolwareTypeError } from "@toolware/core";
import type { CompiledPolicy } from "./compile.js";
import type { PolicyRuntime } from "./runtime.js";

// Names the core's filter takes as they are; a name that normalises to nothing is refused there, so such a rule
// keeps no name filter (its predicate alone decides).
function coreNames(names: readonly string[] | undefined): readonly string[] | undefined {
  if (names === undefined || names.some((n) => normalizeName(n) === "")) return undefined;
  return names;
}

/** Default chain position of the decision hooks: ahead of the packs' own defaults (loop-guard 100, 0, cache -100). */
export const DEFAULT_PRIORITY = 500;

/** Enforces a decision: blocks a deny, asks for an approve, lets an allow through. @internal */
export function enforce(rt: PolicyRuntime, ctx: ToolCallHookContext): Promise<void> | undefined {
  const decision = rt.pinned(ctx);
  if (decision.effect === "deny") {
    ctx.block(decision.reason ?? defaultReason(decision.rule, decision.source));
  } else if (decision.effect === "approve") {
    const gate = rt.compiledOf(decision).gates.get(decision.index);
    // An approve without its gate cannot ask: fail closed.
    if (gate === undefined) ctx.block(`policy rule ${decision.rule} needs an approval that cannot be asked`);
    else return gate(ctx) as Promise<void>;
  }
  return undefined;
}

function defaultReason(rule: string, source: string): string {
  return source === "default" ? "the policy denies calls no rule allows" : `denied by policy rule ${rule}`;
}

/**
 * The hooks of a policy that never reloads: one decision hook per rule (`policy:<rule>`, running only for the
 * calls that rule decides, so the trace, audit lines and OTel spans name it), `policy:default` and `policy:cedar`,
 * and the packs each rule attaches, running only for the calls its match holds for. @internal
 */
export function staticHooks(rt: PolicyRuntime, compiled: CompiledPolicy, priority: number): HookSpec[] {
  const hooks: HookSpec[] = [];
  const decider = (name: string, index: number, tools?: readonly string[]): HookSpec => ({
    kind: "before",
    fn: function policyRule(ctx) {
      // A shadow rule's hook only marks the trace: what it would have done is in ctx.state.policy and the events.
      if (rt.pinned(ctx).index === index) return enforce(rt, ctx);
    },
    options: {
      name,
      priority,
      onError: "block",
      // The core's name filter compares names exactly as the rule's match does (normalised, same globs), so the
      // chains of other tools leave this hook out and only the predicate of the calls it can decide runs.
      ...(tools === undefined ? {} : { tools }),
      agents: (ctx) => {
        const d = rt.pinned(ctx);
        return d.index === index || (d.shadowIndex.length !== 0 && d.shadowIndex.includes(index));
      },
    },
  });
  for (const rule of compiled.decider.rules) {
    if (rule.decide !== undefined || rule.match.condition !== undefined)
      hooks.push(decider(rule.name, rule.index, coreNames(rule.match.toolNames)));
  }
  if (compiled.decider.cedar !== undefined) hooks.push(decider("cedar", -2));
  hooks.push(decider("default", -1));
  for (const a of compiled.attachments) {
    for (const h of a.pack.hooks) {
      if (h.options?.agents !== undefined) {
        throw new ToolwareTypeError(
          "TOOLWARE_INVALID_PACK",
          `pack ${a.name} of rule ${a.ruleName} filters agents itself`,
        );
      }
      // Packs inside the decision hooks never see a denied call (it is blocked first); those outside (audit)
      // record it.
      const only = (ctx: ToolCallHookContext): boolean => rt.pinned(ctx).matchedIndex.includes(a.rule);
      const name = `${a.ruleName}:${h.options?.name ?? a.name}`;
      const tools = h.options?.tools ?? coreNames(compiled.decider.rules[a.rule]?.match.toolNames);
      hooks.push({
        ...h,
        options: { ...h.options, name, agents: only, ...(tools === undefined ? {} : { tools }) },
      } as HookSpec);
    }
  }
  return hooks;
}
