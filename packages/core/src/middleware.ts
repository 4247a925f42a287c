import { failBeforeTool } from "./call-state.js";
import type { ToolCallHookContext } from "./context.js";
import { HookTimeoutError, ToolwareError } from "./errors.js";
import { applies, fail, fatalErrors } from "./failure-policy.js";
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

/** Turns a user middleware into a chain step with error policy, time budget, next() guard and tracing. @internal */
export function wrapMiddleware(rt: Runtime, h: RuntimeHook): (ctx: Ctx, next: KoaNext) => Promise<void> | undefined {
  const fn = h.fn as (ctx: Ctx, next: KoaNext) => unknown;
  return function toolwareMiddleware(ctx, next) {
    const ok = applies(rt, ctx, h, "before");
    if (ok === "blocked") return undefined;
    if (ok === false) return next();

    const clocked = rt.timing || h.timeoutMs !== undefined;
    const t0 = clocked ? now() : 0;
    // Time spent inside next() belongs to the rest of the chain, not to this middleware.
    let insideMs = 0;
    let enteredAt = 0;
    const version = ctx._inputVersion;
    const decisions0 = ctx._decisions;
    let stage = BEFORE;
    let inner: Promise<void> | undefined;
    let skipped: Promise<void> | undefined;
    let innerDecisions = 0;
    let resultAtNext: string | undefined;
    const budget = h.timeoutMs === undefined ? undefined : new Budget(h, h.timeoutMs);

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
      const d = ctx._decisions;
      resultAtNext = ctx.toolResult;
      const done = (): void => {
        stage = AFTER;
        if (clocked) insideMs += now() - enteredAt;
        innerDecisions = ctx._decisions - d;
        resultAtNext = ctx.toolResult;
        budget?.resume();
      };
      if (ctx._settled) {
        done();
        return Promise.resolve();
      }
      inner = next().then(done, (e: unknown) => {
        done();
        throw e;
      });
      return inner;
    };

    const onError = (e: unknown): Promise<void> | undefined => {
      budget?.stop();
      if (fatalErrors.has(e as object)) throw e;
      if (stage === INSIDE && inner !== undefined) {
        // It threw while the rest of the chain still runs (next() not awaited): let that finish first.
        return inner.then(
          () => onError(e),
          () => onError(e),
        );
      }
      if (stage === BEFORE || stage === ABANDONED) {
        stage = ABANDONED;
        if (fail(rt, ctx, h, "before", e, t0 + insideMs)) return undefined;
        if (ctx._settled) return undefined;
        const rest = next();
        skipped = rest.then(
          () => {},
          () => {},
        );
        return rest;
      }
      fail(rt, ctx, h, "after", e, t0 + insideMs);
      return undefined;
    };

    const finish = (): Promise<void> | undefined => {
      budget?.stop();
      if (stage === INSIDE && inner !== undefined) {
        // next() was called without await: the chain must still finish before this call does.
        return inner.then(finish, finish);
      }
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
        return undefined;
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
      return undefined;
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
  };
}
