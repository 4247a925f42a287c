import compose from "koa-compose";
import type { ToolCallHookContext } from "./context.js";
import type { Agent } from "./entities.js";
import { wrapMiddleware } from "./middleware.js";
import { nameForms } from "./names.js";
import type { Registration } from "./registry.js";
import { runAfters, runBefores } from "./run.js";
import { runToolThen } from "./run-tool.js";
import type { Runtime, RuntimeHook } from "./runtime.js";
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
  /** Runs the hooks and the tool, then `done` (in the same step when the last hook or the tool settles). */
  readonly run: <R>(ctx: Ctx, done: (ctx: Ctx) => R) => R | Promise<R>;
  /** Versions of the global, crew and agent layers the chain was built from. */
  readonly versions: readonly [number, number, number];
  /**
   * Whether `run` can reject: only a hook with the `"throw"` policy makes it (or a hook that lets
   * the `HookFailedError` of a nested `invoke` with such a hook escape).
   */
  readonly mayReject: boolean;
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

// Without middlewares the chain is flat: before-hooks on the way in, the tool, then the
// after-hooks of the segments that were entered, innermost first. Sync hooks never
// allocate a promise, and the tool's own `.then` runs every after-hook and `done`.
function runPlain<R>(
  rt: Runtime,
  ctx: Ctx,
  segments: readonly Segment[],
  k: number,
  done: (ctx: Ctx) => R,
): R | Promise<R> {
  for (; k < segments.length; k++) {
    const seg = segments[k] as Segment;
    if (seg.type !== "before") continue;
    const r = runBefores(rt, ctx, seg.hooks, 0);
    const at = k;
    if (r !== undefined) {
      return r.then(() =>
        ctx._settled ? unwind(rt, ctx, segments, at, done) : runPlain(rt, ctx, segments, at + 1, done),
      );
    }
    if (ctx._settled) return unwind(rt, ctx, segments, k, done);
  }
  return runToolThen(rt, ctx, (c) => unwind(rt, c, segments, segments.length, done));
}

/** Runs the after-hooks of the segments before index `k`, innermost first, then `done`. */
function unwind<R>(
  rt: Runtime,
  ctx: Ctx,
  segments: readonly Segment[],
  k: number,
  done: (ctx: Ctx) => R,
): R | Promise<R> {
  for (let i = k - 1; i >= 0; i--) {
    const seg = segments[i] as Segment;
    if (seg.type !== "after") continue;
    const r = runAfters(rt, ctx, seg.hooks, seg.hooks.length - 1);
    if (r !== undefined) return r.then(() => unwind(rt, ctx, segments, i, done));
  }
  return done(ctx);
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

// koa-compose hands the context to the function after the last middleware: one terminal per chain, not per call.
function terminal(rt: Runtime): (ctx: Ctx) => Promise<void> | undefined {
  return (ctx) => runToolThen(rt, ctx, ignore);
}

function ignore(): undefined {
  return undefined;
}

/** Compiles the selected hooks into one runnable chain. @internal */
export function buildChain(
  rt: Runtime,
  regs: Registration[],
  defaultPolicy: HookErrorPolicy,
  versions: readonly [number, number, number],
): Chain {
  const hooks = regs.map((r) => toRuntime(r, defaultPolicy));
  const segments = segment(hooks);
  let run: Chain["run"];
  if (segments.length === 0) {
    run = (ctx, done) => runToolThen(rt, ctx, done);
  } else if (segments.every((s) => s.type !== "middleware")) {
    run = (ctx, done) => runPlain(rt, ctx, segments, 0, done);
  } else {
    // Middlewares are composed with koa-compose, by design (the contract's baseline): its
    // dispatcher always returns a promise, so `done` runs in one `.then` after the onion.
    const composed = compose(segments.map((s) => toKoa(rt, s)));
    const last = terminal(rt);
    run = (ctx, done) => composed(ctx, last).then(() => done(ctx));
  }
  return { regs, run, versions, mayReject: hooks.some((h) => h.policy === "throw") };
}
