import compose from "koa-compose";
import type { ToolCallHookContext } from "./context.js";
import type { Agent } from "./entities.js";
import { wrapMiddleware } from "./middleware.js";
import { nameForms } from "./names.js";
import type { Registration } from "./registry.js";
import { type Runtime, type RuntimeHook, runAfters, runBefores, runTool } from "./run.js";
import type { HookErrorPolicy, LayerKind } from "./types.js";

type Ctx = ToolCallHookContext;

/** Consecutive plain hooks fuse into one step; a middleware is a step of its own. */
type Segment =
  | { readonly type: "before"; readonly hooks: RuntimeHook[] }
  | { readonly type: "after"; readonly hooks: RuntimeHook[] }
  | { readonly type: "middleware"; readonly hook: RuntimeHook };

/** The compiled hooks of one (tool, agent, crew) combination. @internal */
export interface Chain {
  readonly regs: readonly Registration[];
  readonly run: (ctx: Ctx) => void | Promise<void>;
  /** Versions of the global, crew and agent layers the chain was built from. */
  readonly versions: readonly [number, number, number];
}

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

function toRuntime(r: Registration, defaultPolicy: HookErrorPolicy): RuntimeHook {
  return {
    name: r.name,
    info: r.info,
    fn: r.fn,
    policy: r.onError ?? defaultPolicy,
    timeoutMs: r.timeoutMs,
    predicates: r.filter.predicates.length > 0 ? r.filter.predicates : null,
    entries: [],
  };
}

function segment(hooks: RuntimeHook[]): Segment[] {
  const segments: Segment[] = [];
  for (const h of hooks) {
    const last = segments[segments.length - 1];
    const kind = h.info.kind;
    if (kind === "middleware") segments.push({ type: "middleware", hook: h });
    else if (last !== undefined && last.type === kind) last.hooks.push(h);
    else segments.push({ type: kind, hooks: [h] });
  }
  return segments;
}

// Without middlewares the fused steps run directly, so sync hooks never allocate a promise.
function runPlain(rt: Runtime, ctx: Ctx, segments: readonly Segment[], k: number): void | Promise<void> {
  const seg = segments[k];
  if (seg === undefined) return runTool(rt, ctx);
  if (seg.type === "before") {
    const r = runBefores(rt, ctx, seg.hooks, 0);
    if (r !== undefined) return r.then(() => (ctx._settled ? undefined : runPlain(rt, ctx, segments, k + 1)));
    return ctx._settled ? undefined : runPlain(rt, ctx, segments, k + 1);
  }
  const hooks = (seg as { hooks: RuntimeHook[] }).hooks;
  const r = runPlain(rt, ctx, segments, k + 1);
  if (r !== undefined) return r.then(() => runAfters(rt, ctx, hooks, hooks.length - 1));
  return runAfters(rt, ctx, hooks, hooks.length - 1);
}

function toKoa(rt: Runtime, seg: Segment): (ctx: Ctx, next: () => Promise<void>) => unknown {
  if (seg.type === "middleware") return wrapMiddleware(rt, seg.hook);
  const hooks = seg.hooks;
  if (seg.type === "before") {
    return function fusedBeforeHooks(ctx, next) {
      const r = runBefores(rt, ctx, hooks, 0);
      if (r !== undefined) return r.then(() => (ctx._settled ? undefined : next()));
      return ctx._settled ? undefined : next();
    };
  }
  return function fusedAfterHooks(ctx, next) {
    return next().then(() => runAfters(rt, ctx, hooks, hooks.length - 1));
  };
}

/** Compiles the selected hooks into one runnable chain. @internal */
export function buildChain(
  rt: Runtime,
  regs: Registration[],
  defaultPolicy: HookErrorPolicy,
  versions: readonly [number, number, number],
): Chain {
  const segments = segment(regs.map((r) => toRuntime(r, defaultPolicy)));
  let run: Chain["run"];
  if (segments.length === 0) {
    run = (ctx) => runTool(rt, ctx);
  } else if (segments.every((s) => s.type !== "middleware")) {
    run = (ctx) => runPlain(rt, ctx, segments, 0);
  } else {
    const composed = compose(segments.map((s) => toKoa(rt, s)));
    const terminal = (ctx: Ctx) => () => runTool(rt, ctx);
    run = (ctx) => composed(ctx, terminal(ctx));
  }
  return { regs, run, versions };
}
