import { blockCall, replaceResult } from "./call-state.js";
import type { ToolCallHookContext } from "./context.js";
import { HookTimeoutError } from "./errors.js";
import { applies, fail } from "./failure-policy.js";
import { now, type Runtime, type RuntimeHook } from "./runtime.js";
import { type Then, thenOf } from "./thenable.js";
import { awaitHook, overran } from "./timeouts.js";
import { record } from "./trace.js";
import type { TraceAction } from "./types.js";

// The runners of plain before- and after-hooks: adjacent ones run as one step, and the sync ones
// without a promise.

type Ctx = ToolCallHookContext;
type MaybePromise = void | Promise<void>;

function beforeDone(rt: Runtime, ctx: Ctx, h: RuntimeHook, result: unknown, version: number, t0: number): void {
  if (result === false && !ctx._settled) blockCall(ctx, undefined);
  const action: TraceAction = ctx._settled
    ? ctx._status === "blocked"
      ? "blocked"
      : "substituted"
    : ctx._inputVersion !== version
      ? "modified-input"
      : "proceeded";
  record(rt, ctx, h, "before", action, t0);
}

// The rest of a step after a hook that returned a thenable. Kept out of the loops, whose variables
// would otherwise live in a context allocated for every hook, sync or not.
function awaitBefore(
  rt: Runtime,
  ctx: Ctx,
  hooks: readonly RuntimeHook[],
  i: number,
  result: object,
  then: Then,
  version: number,
  t0: number,
): Promise<void> {
  const h = hooks[i] as RuntimeHook;
  return awaitHook(
    result,
    then,
    h,
    (value) => {
      beforeDone(rt, ctx, h, value, version, t0);
      return runBefores(rt, ctx, hooks, i + 1);
    },
    (e: unknown) => {
      if (fail(rt, ctx, h, "before", e, t0)) return;
      return runBefores(rt, ctx, hooks, i + 1);
    },
  );
}

/** Runs adjacent before-hooks as one step, without a promise for the sync ones. @internal */
export function runBefores(rt: Runtime, ctx: Ctx, hooks: readonly RuntimeHook[], start: number): MaybePromise {
  // Without timing, a hook with no predicate and no time limit reads no clock and runs no filter.
  const untimed = !rt.timing;
  for (let i = start; i < hooks.length; i++) {
    if (ctx._settled) return;
    const h = hooks[i] as RuntimeHook;
    const plain = untimed && h.plain;
    let t0 = 0;
    if (!plain) {
      const ok = applies(rt, ctx, h, "before");
      if (ok !== true) {
        if (ok === "blocked") return;
        continue;
      }
      if (rt.timing || h.timeoutMs !== undefined) t0 = now();
    }
    const version = ctx._inputVersion;
    let result: unknown;
    let then: Then | undefined;
    try {
      // Called as a plain function: `this` must not be the runtime hook, whose shared entries a hook could alter.
      const fn = h.fn as (c: Ctx) => unknown;
      result = fn(ctx);
      then = result === undefined ? undefined : thenOf(result);
    } catch (e) {
      if (fail(rt, ctx, h, "before", e, t0)) return;
      continue;
    }
    if (then !== undefined) return awaitBefore(rt, ctx, hooks, i, result as object, then, version, t0);
    if (plain) {
      // The common case, a hook that returned nothing and changed nothing: its shared entry.
      if (result === undefined && !ctx._settled && ctx._inputVersion === version && ctx._traceAs === undefined) {
        ctx._trace.push(h.beforeProceeded);
        continue;
      }
    } else if (overran(h, t0)) {
      if (fail(rt, ctx, h, "before", new HookTimeoutError(h.name, h.timeoutMs as number), t0)) return;
      continue;
    }
    beforeDone(rt, ctx, h, result, version, t0);
  }
}

// Only a string replaces the result (CrewAI's rule), but a redactor returning an object must still show.
function ignoredReturn(rt: Runtime, ctx: Ctx, h: RuntimeHook, result: unknown, t0: number): void {
  rt.ignoredReturn(ctx, h, result);
  const reason = `hook ${h.name} returned ${typeof result} instead of a string; the result is unchanged`;
  record(rt, ctx, h, "after", "ignored-return", t0, undefined, reason);
}

function afterDone(
  rt: Runtime,
  ctx: Ctx,
  h: RuntimeHook,
  result: unknown,
  prev: string | undefined,
  decisions: number,
  t0: number,
): void {
  // A hook that blocked or responded keeps that decision's result, whatever it returns.
  if (ctx._decisions !== decisions) {
    record(rt, ctx, h, "after", ctx._status === "blocked" ? "blocked" : "substituted", t0);
    return;
  }
  if (typeof result === "string") replaceResult(ctx, result);
  else if (result !== undefined && result !== null) {
    ignoredReturn(rt, ctx, h, result, t0);
    return;
  }
  record(rt, ctx, h, "after", ctx.toolResult !== prev ? "modified-result" : "proceeded", t0);
}

function awaitAfter(
  rt: Runtime,
  ctx: Ctx,
  hooks: readonly RuntimeHook[],
  i: number,
  result: object,
  then: Then,
  prev: string | undefined,
  decisions: number,
  t0: number,
): Promise<void> {
  const h = hooks[i] as RuntimeHook;
  return awaitHook(
    result,
    then,
    h,
    (value) => {
      afterDone(rt, ctx, h, value, prev, decisions, t0);
      return runAfters(rt, ctx, hooks, i - 1);
    },
    (e: unknown) => {
      fail(rt, ctx, h, "after", e, t0);
      return runAfters(rt, ctx, hooks, i - 1);
    },
  );
}

/** Runs adjacent after-hooks (stored outermost first) from the innermost out. @internal */
export function runAfters(rt: Runtime, ctx: Ctx, hooks: readonly RuntimeHook[], start: number): MaybePromise {
  const untimed = !rt.timing;
  for (let i = start; i >= 0; i--) {
    const h = hooks[i] as RuntimeHook;
    const plain = untimed && h.plain;
    let t0 = 0;
    if (!plain) {
      if (applies(rt, ctx, h, "after") !== true) continue;
      if (rt.timing || h.timeoutMs !== undefined) t0 = now();
    }
    const prev = ctx.toolResult;
    const decisions = ctx._decisions;
    let result: unknown;
    let then: Then | undefined;
    try {
      const fn = h.fn as (c: Ctx) => unknown;
      result = fn(ctx);
      then = result === undefined ? undefined : thenOf(result);
    } catch (e) {
      fail(rt, ctx, h, "after", e, t0);
      continue;
    }
    if (then !== undefined) return awaitAfter(rt, ctx, hooks, i, result as object, then, prev, decisions, t0);
    if (plain) {
      if (
        result === undefined &&
        ctx._decisions === decisions &&
        ctx.toolResult === prev &&
        ctx._traceAs === undefined
      ) {
        ctx._trace.push(h.afterProceeded);
        continue;
      }
    } else if (overran(h, t0)) {
      fail(rt, ctx, h, "after", new HookTimeoutError(h.name, h.timeoutMs as number), t0);
      continue;
    }
    afterDone(rt, ctx, h, result, prev, decisions, t0);
  }
}
