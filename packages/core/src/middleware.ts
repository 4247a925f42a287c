import { failBeforeTool } from "./call-state.js";
import type { ToolCallHookContext } from "./context.js";
import { HookTimeoutError, ToolwareError } from "./errors.js";
import { applies, fail, fatalErrors } from "./failure-policy.js";
import { runAfters } from "./runners.js";
import { now, type Runtime, type RuntimeHook } from "./runtime.js";
import { settle, type Then, thenOf } from "./thenable.js";
import { Budget } from "./timeouts.js";
import { record } from "./trace.js";
import type { TraceAction } from "./types.js";

type Ctx = ToolCallHookContext;
type KoaNext = () => Promise<void>;

const BEFORE = 0; // has not called next()
const INSIDE = 1; // next() is running
const AFTER = 2; // next() settled
const ABANDONED = 3; // failed or timed out before next(): a late next() must not run the tool

const noop = (): void => {};

/** A run of plain hooks of one kind: what sits between two middlewares. @internal */
export type PlainSegment = { readonly type: "before" | "after"; readonly hooks: RuntimeHook[] };

/**
 * What a step tells when it is done: the middleware whose next() started it (which then knows its
 * own changes from those made inside), or the chain's end, which returns the outcome. @internal
 */
export interface Outer {
  report(ctx: Ctx): unknown;
}

/** One middleware of a chain with the plain hooks just outside it (compiled once per chain). @internal */
export interface MiddlewareStep {
  readonly rt: Runtime;
  readonly hook: RuntimeHook;
  readonly group: readonly PlainSegment[];
  /** Whether its runs read the clock: under `timing: true`, or with a time limit. */
  readonly clocked: boolean;
  /**
   * The innermost middleware's: the innermost plain hooks and the tool, which its next() runs itself
   * (koa-compose's dispatcher would only add a bind and a `Promise.resolve` around it).
   */
  readonly last: ((ctx: Ctx) => unknown) | undefined;
}

// The rest of the chain inside a middleware: through koa-compose, or the innermost step itself.
function rest(step: MiddlewareStep, ctx: Ctx, next: KoaNext): Promise<void> {
  const last = step.last;
  if (last === undefined) return next();
  try {
    return Promise.resolve(last(ctx)) as Promise<void>;
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * Runs the after-hooks of the segments of `group` before index `k`, innermost first, then tells
 * `outer` that this step is done, and returns what `outer` returns. @internal
 */
export function unwindStep(
  rt: Runtime,
  ctx: Ctx,
  group: readonly PlainSegment[],
  k: number,
  outer: Outer | undefined,
): unknown {
  for (let i = k - 1; i >= 0; i--) {
    const seg = group[i] as PlainSegment;
    if (seg.type !== "after") continue;
    const r = runAfters(rt, ctx, seg.hooks, seg.hooks.length - 1);
    if (r !== undefined) return r.then(() => unwindStep(rt, ctx, group, i, outer));
  }
  return outer === undefined ? undefined : outer.report(ctx);
}

// Only a middleware with a time limit (or under `timing: true`) reads the clock: the rest never
// allocate this, and keep no double-valued fields.
class Clock {
  declare readonly t0: number;
  /** Time spent inside next(), which belongs to the rest of the chain, not to this middleware. */
  declare insideMs: number;
  declare enteredAt: number;
  declare readonly budget: Budget | undefined;

  constructor(h: RuntimeHook) {
    this.t0 = now();
    this.insideMs = 0;
    this.enteredAt = 0;
    this.budget = h.timeoutMs === undefined ? undefined : new Budget(h, h.timeoutMs);
  }
}

// One run of one middleware: a single object (no closure context of captured variables) that is
// also what the step inside next() reports to. An object literal rather than a class instance: its
// allocation is inlined where a `new` of a class was not (a construct stub and a call per run).
interface MiddlewareRun extends Outer {
  readonly step: MiddlewareStep;
  readonly ctx: Ctx;
  readonly next: KoaNext;
  readonly outer: Outer | undefined;
  stage: number;
  /**
   * next()'s promise once called; after a "continue" failure before next() (stage ABANDONED), the
   * rest the engine ran in the middleware's place, which a late next() waits for.
   */
  inner: Promise<void> | undefined;
  /** block()/respond() calls so far when next() is called; once it settled, those made inside it. */
  innerDecisions: number;
  resultAtNext: string | undefined;
  readonly version: number;
  readonly decisions0: number;
  /** Only for a middleware with a time limit, or under `timing: true`. */
  clock: Clock | undefined;
}

function newRun(step: MiddlewareStep, ctx: Ctx, next: KoaNext, outer: Outer | undefined): MiddlewareRun {
  return {
    report: reportInner,
    step,
    ctx,
    next,
    outer,
    stage: BEFORE,
    inner: undefined,
    innerDecisions: 0,
    resultAtNext: undefined,
    version: ctx._inputVersion,
    decisions0: ctx._decisions,
    clock: undefined,
  };
}

// The step inside next() is done: a run's `report`.
function reportInner(this: MiddlewareRun): undefined {
  if (this.stage !== INSIDE) return undefined;
  this.stage = AFTER;
  const clock = this.clock;
  if (clock !== undefined) clock.insideMs += now() - clock.enteredAt;
  this.innerDecisions = this.ctx._decisions - this.innerDecisions;
  this.resultAtNext = this.ctx.toolResult;
  clock?.budget?.resume();
  return undefined;
}

// Where the middleware's own time started, for its trace entry: the time inside next() skipped.
function startOf(run: MiddlewareRun): number {
  const clock = run.clock;
  return clock === undefined ? 0 : clock.t0 + clock.insideMs;
}

function unwindRun(run: MiddlewareRun): unknown {
  const { rt, group } = run.step;
  return unwindStep(rt, run.ctx, group, group.length, run.outer);
}

// The next() the middleware receives, bound to its run (a bound function costs less than a closure).
function guardedNext(this: MiddlewareRun): Promise<void> {
  // An abandoned middleware's late next() runs nothing, but waits for the chain the engine ran in its place.
  if (this.stage === ABANDONED) return this.inner ?? Promise.resolve();
  if (this.stage !== BEFORE) {
    return Promise.reject(
      new ToolwareError(
        "TOOLWARE_NEXT_TWICE",
        `middleware ${this.step.hook.name} called next() more than once; the chain runs once per call (use ctx.wrapExecution() to run the tool again)`,
      ),
    );
  }
  this.stage = INSIDE;
  const clock = this.clock;
  if (clock !== undefined) {
    clock.budget?.pause();
    clock.enteredAt = now();
  }
  const ctx = this.ctx;
  this.innerDecisions = ctx._decisions;
  this.resultAtNext = ctx.toolResult;
  if (ctx._settled) {
    this.report(ctx);
    return Promise.resolve();
  }
  // The step koa-compose starts now reads this synchronously: it is the one to report back.
  ctx._outer = this;
  const inner = rest(this.step, ctx, this.next);
  this.inner = inner;
  return inner;
}

// next() was called but the rest has not reported back (not awaited, or it rejected and was caught):
// the rest must finish before the middleware's call does.
function afterInner(run: MiddlewareRun, then: () => unknown): Promise<unknown> {
  const settled = (): unknown => {
    run.report(run.ctx);
    return then();
  };
  return (run.inner as Promise<void>).then(settled, settled);
}

// What the middleware threw or rejected with; bound to its run when it is the `.then`'s handler.
function failedThis(this: MiddlewareRun, e: unknown): unknown {
  return failed(this, e);
}

function failed(run: MiddlewareRun, e: unknown): unknown {
  run.clock?.budget?.stop();
  if (fatalErrors.has(e as object)) throw e;
  const stage = run.stage;
  if (stage === INSIDE) return afterInner(run, () => failed(run, e));
  const { rt, hook: h, group } = run.step;
  const ctx = run.ctx;
  if (stage === BEFORE || stage === ABANDONED) {
    run.stage = ABANDONED;
    if (fail(rt, ctx, h, "before", e, startOf(run)) || ctx._settled) return unwindRun(run);
    // The "continue" policy: the engine runs the rest of the chain in the middleware's place.
    ctx._outer = undefined;
    const inside = rest(run.step, ctx, run.next);
    run.inner = inside.then(noop, noop);
    return inside.then(() => unwindStep(rt, ctx, group, group.length, run.outer));
  }
  fail(rt, ctx, h, "after", e, startOf(run));
  return unwindRun(run);
}

// The middleware returned; bound to its run when it is the `.then`'s handler.
function finishThis(this: MiddlewareRun): unknown {
  return finish(this);
}

function finish(run: MiddlewareRun): unknown {
  const clock = run.clock;
  clock?.budget?.stop();
  if (run.stage === INSIDE) return afterInner(run, () => finish(run));
  const { rt, hook: h } = run.step;
  const ctx = run.ctx;
  // Synchronous work cannot be interrupted by the timer: judge it once the middleware returns.
  if (h.timeoutMs !== undefined && now() - startOf(run) > h.timeoutMs) {
    return failed(run, new HookTimeoutError(h.name, h.timeoutMs));
  }
  if (run.stage === BEFORE && !ctx._settled) {
    run.stage = ABANDONED;
    const error = new ToolwareError(
      "TOOLWARE_NEXT_NOT_CALLED",
      `middleware ${h.name} returned without calling next(), ctx.respond() or ctx.block(): did you forget \`await next()\`?`,
    );
    failBeforeTool(ctx, error);
    rt.hookFailed(ctx, h, "before", error);
    record(rt, ctx, h, "before", "failed", startOf(run), error, error.message);
    return unwindRun(run);
  }
  const own = ctx._decisions - run.decisions0 - run.innerDecisions;
  const action: TraceAction =
    own > 0
      ? ctx._status === "blocked"
        ? "blocked"
        : "substituted"
      : run.stage === AFTER && ctx.toolResult !== run.resultAtNext
        ? "modified-result"
        : ctx._inputVersion !== run.version
          ? "modified-input"
          : "proceeded";
  record(rt, ctx, h, run.stage === BEFORE ? "before" : "around", action, startOf(run));
  return unwindRun(run);
}

/**
 * Runs a user middleware with its error policy, time budget, next() guard and trace entry, then the
 * after-hooks of its step's group (the plain hooks just outside it) and the report to `outer`. There
 * is no try/await boundary: what the middleware returns gets one `.then(finish, failed)`, and the
 * step inside next() reports when it is done instead of next() getting a `.then` of its own.
 * @internal
 */
export function runMiddleware(step: MiddlewareStep, ctx: Ctx, next: KoaNext, outer: Outer | undefined): unknown {
  const { rt, hook: h, group } = step;
  const ok = applies(rt, ctx, h, "before");
  if (ok === "blocked") return unwindStep(rt, ctx, group, group.length, outer);
  if (ok === false) {
    // Not this call's: the rest runs as if it were not there, then the hooks outside.
    ctx._outer = undefined;
    return rest(step, ctx, next).then(() => unwindStep(rt, ctx, group, group.length, outer));
  }
  const run = newRun(step, ctx, next, outer);
  if (step.clocked) run.clock = new Clock(h);
  const fn = h.fn as (ctx: Ctx, next: KoaNext) => unknown;
  let result: unknown;
  let then: Then | undefined;
  try {
    result = fn(ctx, guardedNext.bind(run));
    // A returned value whose inspection throws (a revoked proxy) is this middleware's failure.
    then = thenOf(result);
  } catch (e) {
    return failed(run, e);
  }
  if (then === undefined) return finish(run);
  const ok2 = finishThis.bind(run);
  const err = failedThis.bind(run);
  const budget = run.clock?.budget;
  if (budget === undefined) return settle(result as object, then, ok2, err);
  return Promise.race([result, budget.expired]).then(ok2, err);
}
