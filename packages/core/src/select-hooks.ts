import type { Agent } from "./entities.js";
import { nameForms } from "./names.js";
import type { Registration } from "./registration.js";
import type { LayerKind } from "./types.js";

// Which hooks a call runs, and in what order, is decided once per (tool, agent, crew) and cached
// with the compiled chain; predicates (the per-call part of a filter) run with the hooks.

const LAYER_RANK: Record<LayerKind, number> = { global: 0, crew: 1, agent: 2 };

/**
 * Outermost first: higher priority; then after-hooks around before-hooks and
 * middlewares; then global around crew around agent; then registration order
 * (first registered outermost, except after-hooks where the first runs first,
 * so it is innermost).
 */
function outerFirst(a: Registration, b: Registration): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  const ga = a.kind === "after" ? 0 : 1;
  const gb = b.kind === "after" ? 0 : 1;
  if (ga !== gb) return ga - gb;
  if (a.layer !== b.layer) return LAYER_RANK[a.layer] - LAYER_RANK[b.layer];
  return a.kind === "after" ? b.seq - a.seq : a.seq - b.seq;
}

/** The hooks of the given layers that can apply to a call of `toolName` by `agent`, in chain order. */
export function selectHooks(
  layers: readonly (readonly Registration[])[],
  toolName: string,
  agent: Agent | undefined,
): Registration[] {
  const toolForms = nameForms(toolName);
  const role = agent?.role;
  const roleForms = role === undefined ? undefined : nameForms(role);
  const selected: Registration[] = [];
  for (const regs of layers) {
    for (const r of regs) {
      if (!r.filter.tools.every((t) => toolForms.some((form) => t(toolName, form)))) continue;
      if (r.filter.agents.length > 0) {
        if (role === undefined || roleForms === undefined) continue;
        if (!r.filter.agents.every((t) => roleForms.some((form) => t(role, form)))) continue;
      }
      selected.push(r);
    }
  }
  return selected.sort(outerFirst);
}
