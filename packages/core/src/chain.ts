import compose from "koa-compose";
import type { ToolCallHookContext } from "./context.js";
import type { ToolwareTypeError } from "./errors.js";
import { type MiddlewareStep, type Outer, type PlainSegment, runMiddleware, unwindStep } from "./middleware.js";
import { twiceInOneCall } from "./pack.js";
import type { Registration } from "./registration.js";
import { runToolThen } from "./run-tool.js";
import { runAfters, runBefores } from "./runners.js";
import type { Runtime, RuntimeHook } from "./runtime.js";
import { sharedEntry } from "./trace.js";
import type { HookErrorPolicy, TraceEntry } from "./types.js";

type Ctx = ToolCallHookContext;

// A registration as it runs in a chain: its policy resolved, per-call predicates only when it has some.
function toRuntime(r: Registration, defaultPolicy: HookErrorPolicy): RuntimeHook {
  const predicates = r.filter.predicates.length > 0 ? r.filter.predicates : null;
  const entries: (TraceEntry | undefined)[] = [];
  const hook = { name: r.name, info: r.info, entries };
  return {
    name: r.name,
    info: r.info,
    fn: r.fn,
    policy: r.onError ?? defaultPolicy,
    timeoutMs: r.timeoutMs,
    predicates,
    plain: predicates === null && r.timeoutMs === undefined,
    entries,
    beforeProceeded: sharedEntry(hook, "before", "proceeded"),
    afterProceeded: sharedEntry(hook, "after", "proceeded"),
  };
}

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
  /** Why every call of this chain is refused before any hook runs (a stateful pack on two of its layers). */
  readonly refused: ToolwareTypeError | undefined;
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

// The plain hooks around the tool run flat: before-hooks on the way in, the tool, then the
// after-hooks of the segments that were entered, innermost first. Sync hooks never allocate a
// promise, and the tool's own `.then` runs `afterTool` (every after-hook, then `done`), which the
// chain makes once, not per call.
function runGroup<R>(
  rt: Runtime,
  ctx: Ctx,
  segments: readonly Segment[],
  k: number,
  afterTool: (ctx: Ctx) => R | Promise<R>,
  done: (ctx: Ctx) => R,
): R | Promise<R> {
  for (; k < segments.length; k++) {
    const seg = segments[k] as Segment;
    if (seg.type !== "before") continue;
    const r = runBefores(rt, ctx, seg.hooks, 0);
    const at = k;
    if (r !== undefined) {
      return r.then(() =>
        ctx._settled ? unwind(rt, ctx, segments, at, done) : runGroup(rt, ctx, segments, at + 1, afterTool, done),
      );
    }
    if (ctx._settled) return unwind(rt, ctx, segments, k, done);
  }
  return runToolThen(ctx, afterTool);
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
// on next() to know it; the outermost step reports to the chain's end, which returns the outcome,
// so the outcome needs no `.then` on koa-compose's promise either.
function stepFrom(step: MiddlewareStep, ctx: Ctx, k: number, next: KoaNext, outer: Outer | undefined): unknown {
  const { rt, group } = step;
  for (; k < group.length; k++) {
    const seg = group[k] as PlainSegment;
    if (seg.type !== "before") continue;
    const r = runBefores(rt, ctx, seg.hooks, 0);
    const at = k;
    if (r !== undefined) {
      return r.then(() =>
        ctx._settled ? unwindStep(rt, ctx, group, at, outer) : stepFrom(step, ctx, at + 1, next, outer),
      );
    }
    if (ctx._settled) return unwindStep(rt, ctx, group, k, outer);
  }
  return runMiddleware(step, ctx, next, outer);
}

function middlewareStep(step: MiddlewareStep) {
  if (step.group.every((s) => s.type !== "before")) {
    return function toolwareMiddleware(ctx: Ctx, next: KoaNext): unknown {
      return runMiddleware(step, ctx, next, ctx._outer);
    };
  }
  return function toolwareMiddleware(ctx: Ctx, next: KoaNext): unknown {
    return stepFrom(step, ctx, 0, next, ctx._outer);
  };
}

// The innermost step reports to the middleware that started it once the tool and the after-hooks
// around it are done. It reads that middleware from the context then rather than keeping it from its
// start: every write of `_outer` happens on the way in, before this step starts, so it is the same.
function innermostStep(rt: Runtime, group: Group) {
  const report = (ctx: Ctx): unknown => {
    const outer = ctx._outer;
    return outer === undefined ? undefined : outer.report(ctx);
  };
  const afterTool = (ctx: Ctx): unknown => unwind(rt, ctx, group, group.length, report);
  return function toolStep(ctx: Ctx): unknown {
    return runGroup(rt, ctx, group, 0, afterTool, report);
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
  // A chain belongs to one ToolHooks, which always passes the same `done`: what is made from it is
  // made once, not per call.
  let lastDone: ((ctx: Ctx) => unknown) | undefined;
  if (segments.length === 0) {
    run = (ctx, done) => runToolThen(ctx, done);
  } else if (segments.every((s) => s.type !== "middleware")) {
    let afterTool: (ctx: Ctx) => unknown = (c) => c;
    run = <R>(ctx: Ctx, done: (ctx: Ctx) => R) => {
      if (done !== lastDone) {
        lastDone = done;
        afterTool = (c) => unwind(rt, c, segments, segments.length, done);
      }
      return runGroup(rt, ctx, segments, 0, afterTool as (ctx: Ctx) => R | Promise<R>, done);
    };
  } else {
    const outside: [RuntimeHook, PlainSegment[]][] = [];
    let group: PlainSegment[] = [];
    for (const s of segments) {
      if (s.type !== "middleware") group.push(s);
      else {
        outside.push([s.hook, group]);
        group = [];
      }
    }
    const innermost = innermostStep(rt, group);
    const steps = outside.map(([hook, g], i) =>
      middlewareStep({
        rt,
        hook,
        group: g,
        clocked: rt.timing || hook.timeoutMs !== undefined,
        last: i === outside.length - 1 ? innermost : undefined,
      }),
    );
    // Middlewares are composed with koa-compose, by design (the contract's baseline): the innermost
    // one's next() runs the innermost step itself. koa-compose's promise settles with what the
    // outermost step returns: the outcome, built by the chain's end.
    const composed = compose(steps);
    let end: Outer = { report: (c) => c };
    run = <R>(ctx: Ctx, done: (ctx: Ctx) => R) => {
      if (done !== lastDone) {
        lastDone = done;
        end = { report: (c) => done(c) };
      }
      ctx._outer = end;
      return composed(ctx) as unknown as Promise<R>;
    };
  }
  return {
    regs,
    run,
    empty: hooks.length === 0,
    versions,
    mayReject: hooks.some((h) => h.policy === "throw"),
    refused: twiceInOneCall(regs),
  };
}
