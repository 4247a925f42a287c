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

/** Tells the middleware whose next() started a step that the step is done. @internal */
export type Outer = () => void;

/**
 * Runs the after-hooks of the segments of `group` before index `k`, innermost first, then tells
 * `outer` that this step is done. @internal
 */
export function unwindStep(
  rt: Runtime,
  ctx: Ctx,
  group: readonly PlainSegment[],
  k: number,
  outer: Outer | undefined,
): Promise<undefined> | undefined {
  for (let i = k - 1; i >= 0; i--) {
    const seg = group[i] as PlainSegment;
    if (seg.type !== "after") continue;
    const r = runAfters(rt, ctx, seg.hooks, seg.hooks.length - 1);
    if (r !== undefined) return r.then(() => unwindStep(rt, ctx, group, i, outer));
  }
  outer?.();
  return undefined;
}

// next() was called but the rest has not reported back (not awaited, or it rejected and was caught):
// the rest must finish before the middleware's call does.
function afterInner(
  inner: Promise<void>,
  innerDone: Outer,
  then: () => Promise<undefined> | undefined,
): Promise<undefined> {
  const settled = (): Promise<undefined> | undefined => {
    innerDone();
    return then();
  };
  return inner.then(settled, settled);
}

/**
 * Runs a user middleware with its error policy, time budget, next() guard and trace entry, then the
 * after-hooks of `group` (the plain hooks just outside it) and the report to `outer`. There is no
 * try/await boundary: what the middleware returns gets one `.then(finish, onError)`, and the step
 * inside next() reports when it is done instead of next() getting a `.then` of its own. @internal
 */
export function runMiddleware(
  rt: Runtime,
  h: RuntimeHook,
  ctx: Ctx,
  next: KoaNext,
  group: readonly PlainSegment[],
  outer: Outer | undefined,
): Promise<undefined> | undefined {
  const ok = applies(rt, ctx, h, "before");
  if (ok === "blocked") return unwindStep(rt, ctx, group, group.length, outer);
  if (ok === false) {
    // Not this call's: the rest runs as if it were not there, then the hooks outside.
    ctx._outer = undefined;
    return next().then(() => unwindStep(rt, ctx, group, group.length, outer));
  }
  const fn = h.fn as (ctx: Ctx, next: KoaNext) => unknown;
  const clocked = rt.timing || h.timeoutMs !== undefined;
  const t0 = clocked ? now() : 0;
  // Time spent inside next() belongs to the rest of the chain, not to this middleware.
  let insideMs = 0;
  let enteredAt = 0;
  const version = ctx._inputVersion;
  const decisions0 = ctx._decisions;
  let decisionsAtNext = 0;
  let stage = BEFORE;
  let inner: Promise<void> | undefined;
  let skipped: Promise<void> | undefined;
  let innerDecisions = 0;
  let resultAtNext: string | undefined;
  const budget = h.timeoutMs === undefined ? undefined : new Budget(h, h.timeoutMs);

  const innerDone: Outer = () => {
    if (stage !== INSIDE) return;
    stage = AFTER;
    if (clocked) insideMs += now() - enteredAt;
    innerDecisions = ctx._decisions - decisionsAtNext;
    resultAtNext = ctx.toolResult;
    budget?.resume();
  };

  const guardedNext: KoaNext = () => {
    // An abandoned middleware's late next() runs nothing, but waits for the chain the engine ran in its place.
    if (stage === ABANDONED) return skipped ?? Promise.resolve();
    if (stage !== BEFORE) {
      return Promise.reject(
        new ToolwareError(
          "TOOLWARE_NEXT_TWICE",
          `middleware ${h.name} called next() more than once; the chain runs once per call (use ctx.wrapExecution() to run the tool again)`,
        ),
      );
    }
    stage = INSIDE;
    budget?.pause();
    if (clocked) enteredAt = now();
    decisionsAtNext = ctx._decisions;
    resultAtNext = ctx.toolResult;
    if (ctx._settled) {
      innerDone();
      return Promise.resolve();
    }
    // The step koa-compose starts now reads this synchronously: it is the one to report back.
    ctx._outer = innerDone;
    inner = next();
    return inner;
  };

  const onError = (e: unknown): Promise<undefined> | undefined => {
    budget?.stop();
    if (fatalErrors.has(e as object)) throw e;
    if (stage === INSIDE) return afterInner(inner as Promise<void>, innerDone, () => onError(e));
    if (stage === BEFORE || stage === ABANDONED) {
      stage = ABANDONED;
      if (fail(rt, ctx, h, "before", e, t0 + insideMs) || ctx._settled) {
        return unwindStep(rt, ctx, group, group.length, outer);
      }
      // The "continue" policy: the engine runs the rest of the chain in the middleware's place.
      ctx._outer = undefined;
      const rest = next();
      skipped = rest.then(noop, noop);
      return rest.then(() => unwindStep(rt, ctx, group, group.length, outer));
    }
    fail(rt, ctx, h, "after", e, t0 + insideMs);
    return unwindStep(rt, ctx, group, group.length, outer);
  };

  const finish = (): Promise<undefined> | undefined => {
    budget?.stop();
    if (stage === INSIDE) return afterInner(inner as Promise<void>, innerDone, finish);
    // Synchronous work cannot be interrupted by the timer: judge it once the middleware returns.
    if (h.timeoutMs !== undefined && now() - t0 - insideMs > h.timeoutMs) {
      return onError(new HookTimeoutError(h.name, h.timeoutMs));
    }
    if (stage === BEFORE && !ctx._settled) {
      stage = ABANDONED;
      const error = new ToolwareError(
        "TOOLWARE_NEXT_NOT_CALLED",
        `middleware ${h.name} returned without calling next(), ctx.respond() or ctx.block(): did you forget \`await next()\`?`,
      );
      failBeforeTool(ctx, error);
      rt.hookFailed(ctx, h, "before", error);
      record(rt, ctx, h, "before", "failed", t0 + insideMs, error, error.message);
      return unwindStep(rt, ctx, group, group.length, outer);
    }
    const own = ctx._decisions - decisions0 - innerDecisions;
    const action: TraceAction =
      own > 0
        ? ctx._status === "blocked"
          ? "blocked"
          : "substituted"
        : stage === AFTER && ctx.toolResult !== resultAtNext
          ? "modified-result"
          : ctx._inputVersion !== version
            ? "modified-input"
            : "proceeded";
    record(rt, ctx, h, stage === BEFORE ? "before" : "around", action, t0 + insideMs);
    return unwindStep(rt, ctx, group, group.length, outer);
  };

  let result: unknown;
  let then: Then | undefined;
  try {
    result = fn(ctx, guardedNext);
    // A returned value whose inspection throws (a revoked proxy) is this middleware's failure.
    then = thenOf(result);
  } catch (e) {
    return onError(e);
  }
  if (then === undefined) return finish();
  if (budget === undefined) return settle(result as object, then, finish, onError);
  return Promise.race([result, budget.expired]).then(finish, onError);
}
