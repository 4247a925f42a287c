import compose from "koa-compose";
import type { ToolCallHookContext } from "./context.js";
import { type Outer, type PlainSegment, runMiddleware, unwindStep } from "./middleware.js";
import type { Registration } from "./registration.js";
import { runToolThen } from "./run-tool.js";
import { runAfters, runBefores } from "./runners.js";
import { type Runtime, type RuntimeHook, toRuntime } from "./runtime.js";
import type { HookErrorPolicy } from "./types.js";

type Ctx = ToolCallHookContext;

/** Consecutive plain hooks fuse into one step; a middleware is a step of its own. */
type Segment = PlainSegment | { readonly type: "middleware"; readonly hook: RuntimeHook };

/** The compiled hooks of one (tool, agent, crew) combination. @internal */
export interface Chain {
  readonly regs: readonly Registration[];
  /** Runs the hooks and the tool, then `done` (in the same step when the last hook or the tool settles). */
  readonly run: <R>(ctx: Ctx, done: (ctx: Ctx) => R) => R | Promise<R>;
  /** True when no hook applies: the call runs the tool alone. */
  readonly empty: boolean;
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

type Center = <R>(ctx: Ctx, k: (ctx: Ctx) => R | Promise<R>) => R | Promise<R>;

// The plain hooks around one center (the tool, or a middleware) run flat: before-hooks on the way
// in, the center, then the after-hooks of the segments that were entered, innermost first. Sync
// hooks never allocate a promise, and the center's own `.then` runs every after-hook and `done`.
function runGroup<R>(
  rt: Runtime,
  ctx: Ctx,
  segments: readonly Segment[],
  k: number,
  center: Center,
  done: (ctx: Ctx) => R,
): R | Promise<R> {
  for (; k < segments.length; k++) {
    const seg = segments[k] as Segment;
    if (seg.type !== "before") continue;
    const r = runBefores(rt, ctx, seg.hooks, 0);
    const at = k;
    if (r !== undefined) {
      return r.then(() =>
        ctx._settled ? unwind(rt, ctx, segments, at, done) : runGroup(rt, ctx, segments, at + 1, center, done),
      );
    }
    if (ctx._settled) return unwind(rt, ctx, segments, k, done);
  }
  return center(ctx, (c) => unwind(rt, c, segments, segments.length, done));
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

type KoaNext = () => Promise<void>;
type Group = readonly PlainSegment[];

// With middlewares, koa-compose composes the middlewares alone: each of its steps is one middleware
// with the plain hooks just outside it, and its last function is the innermost plain hooks with the
// tool. A step reports to the middleware outside it when it is done, so that one needs no `.then`
// on next() to know it.
function stepFrom(
  rt: Runtime,
  ctx: Ctx,
  group: Group,
  k: number,
  h: RuntimeHook,
  next: KoaNext,
  outer: Outer | undefined,
): Promise<undefined> | undefined {
  for (; k < group.length; k++) {
    const seg = group[k] as PlainSegment;
    if (seg.type !== "before") continue;
    const r = runBefores(rt, ctx, seg.hooks, 0);
    const at = k;
    if (r !== undefined) {
      return r.then(() =>
        ctx._settled ? unwindStep(rt, ctx, group, at, outer) : stepFrom(rt, ctx, group, at + 1, h, next, outer),
      );
    }
    if (ctx._settled) return unwindStep(rt, ctx, group, k, outer);
  }
  return runMiddleware(rt, h, ctx, next, group, outer);
}

function middlewareStep(rt: Runtime, group: Group, h: RuntimeHook) {
  return function toolwareMiddleware(ctx: Ctx, next: KoaNext): Promise<undefined> | undefined {
    return stepFrom(rt, ctx, group, 0, h, next, ctx._outer);
  };
}

function innermostStep(rt: Runtime, group: Group) {
  return function toolStep(ctx: Ctx): Promise<undefined> | undefined {
    const outer = ctx._outer;
    return runGroup(rt, ctx, group, 0, runToolThen, () => {
      outer?.();
      return undefined;
    });
  };
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
    run = (ctx, done) => runGroup(rt, ctx, segments, 0, runToolThen, done);
  } else {
    const steps: ((ctx: Ctx, next: KoaNext) => Promise<undefined> | undefined)[] = [];
    let group: PlainSegment[] = [];
    for (const s of segments) {
      if (s.type !== "middleware") group.push(s);
      else {
        steps.push(middlewareStep(rt, group, s.hook));
        group = [];
      }
    }
    const last = innermostStep(rt, group);
    // Middlewares are composed with koa-compose, by design (the contract's baseline): its
    // dispatcher always returns a promise, so `done` runs in one `.then` after the onion.
    const composed = compose(steps);
    run = (ctx, done) => composed(ctx, last).then(() => done(ctx));
  }
  return { regs, run, empty: hooks.length === 0, versions, mayReject: hooks.some((h) => h.policy === "throw") };
}
