import compose from "koa-compose";
import type { ToolCallHookContext } from "./context.js";
import { wrapMiddleware } from "./middleware.js";
import type { Registration } from "./registration.js";
import { runToolThen } from "./run-tool.js";
import { runAfters, runBefores } from "./runners.js";
import { type Runtime, type RuntimeHook, toRuntime } from "./runtime.js";
import type { HookErrorPolicy } from "./types.js";

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
  return runToolThen(ctx, (c) => unwind(rt, c, segments, segments.length, done));
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

function ignore(): undefined {
  return undefined;
}

// koa-compose hands the context to the function after the last middleware: one terminal for every chain, not per call.
function terminal(ctx: Ctx): Promise<void> | undefined {
  return runToolThen(ctx, ignore);
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
    run = (ctx, done) => runToolThen(ctx, done);
  } else if (segments.every((s) => s.type !== "middleware")) {
    run = (ctx, done) => runPlain(rt, ctx, segments, 0, done);
  } else {
    // Middlewares are composed with koa-compose, by design (the contract's baseline): its
    // dispatcher always returns a promise, so `done` runs in one `.then` after the onion.
    const composed = compose(segments.map((s) => toKoa(rt, s)));
    run = (ctx, done) => composed(ctx, terminal).then(() => done(ctx));
  }
  return { regs, run, versions, mayReject: hooks.some((h) => h.policy === "throw") };
}
