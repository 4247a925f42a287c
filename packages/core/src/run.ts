import type { ToolCallHookContext } from "./context.js";
import { HookFailedError, HookTimeoutError, messageOf } from "./errors.js";
import { predicatesPass } from "./filter.js";
import { awaitHook, type Runtime, type RuntimeHook } from "./runtime.js";
import { type Then, thenOf } from "./thenable.js";
import type { TraceAction } from "./types.js";

type Ctx = ToolCallHookContext;
type MaybePromise = void | Promise<void>;
type Phase = "before" | "after" | "around";

// Errors of "throw"-policy hooks: every wrapper outside lets them through untouched.
const fatal = new WeakSet<object>();

/** @internal */
export const now = (): number => performance.now();

// Slot of a (phase, action) pair in RuntimeHook.entries; compares interned strings, no keyed lookups.
function slotOf(phase: Phase, action: TraceAction): number {
  const base = phase === "before" ? 0 : phase === "after" ? 8 : 16;
  switch (action) {
    case "proceeded":
      return base;
    case "modified-input":
      return base + 1;
    case "blocked":
      return base + 2;
    case "substituted":
      return base + 3;
    case "modified-result":
      return base + 4;
    case "failed":
      return base + 5;
    case "ignored-return":
      return base + 6;
    default:
      return base + 7;
  }
}

/** @internal */
export function record(
  rt: Runtime,
  ctx: Ctx,
  h: RuntimeHook,
  phase: Phase,
  action: TraceAction,
  t0: number,
  error?: unknown,
  reason?: string,
): void {
  const why = reason ?? (action === "blocked" ? ctx._reason : undefined);
  if (!rt.timing && why === undefined && error === undefined) {
    // The common entries never differ between calls: one frozen object per hook, phase and action.
    const slot = slotOf(phase, action);
    let entry = h.entries[slot];
    if (entry === undefined) {
      entry = Object.freeze({
        hook: h.name,
        layer: h.info.layer,
        kind: h.info.kind,
        phase,
        action,
        reason: undefined,
        error: undefined,
        durationMs: undefined,
      });
      h.entries[slot] = entry;
    }
    ctx._trace.push(entry);
    return;
  }
  ctx._trace.push({
    hook: h.name,
    layer: h.info.layer,
    kind: h.info.kind,
    phase,
    action,
    reason: why,
    error,
    durationMs: rt.timing ? now() - t0 : undefined,
  });
}

// A sync hook cannot be interrupted; one that overran is treated as timed out once it returns.
function overran(h: RuntimeHook, t0: number): boolean {
  return h.timeoutMs !== undefined && now() - t0 > h.timeoutMs;
}

/** Applies a failed hook's policy. Returns true when the call is now blocked. @internal */
export function fail(
  rt: Runtime,
  ctx: Ctx,
  h: RuntimeHook,
  phase: "before" | "after",
  error: unknown,
  t0: number,
): boolean {
  if (fatal.has(error as object)) throw error;
  rt.hookFailed(ctx, h, phase, error);
  const reason = `hook ${h.name} failed: ${messageOf(error)}`;
  record(rt, ctx, h, phase, "failed", t0, error, reason);
  if (h.policy === "throw") {
    const err = new HookFailedError(h.name, h.info.layer, h.info.kind, phase, error);
    fatal.add(err);
    throw err;
  }
  if (h.policy === "continue") return false;
  if (phase === "before") {
    ctx.block(reason);
    ctx._failure = error;
    return true;
  }
  // On the way out: an earlier block keeps its own reason (nothing new is withheld); a failed
  // tool keeps its error but its message is withheld too, as the failing hook may have been
  // the one meant to clean it; an ok result is withheld and the call ends blocked.
  if (ctx._status === "blocked") return true;
  const failedTool = ctx._status === "error";
  ctx.block(reason);
  ctx.toolResult = rt.formatWithheld(ctx.toolName, reason);
  if (failedTool) ctx._status = "error";
  else ctx._failure = error;
  return true;
}

/** Runs a hook's per-call predicates; a predicate that throws counts as the hook failing. @internal */
export function applies(rt: Runtime, ctx: Ctx, h: RuntimeHook, phase: "before" | "after"): boolean | "blocked" {
  if (h.predicates === null) return true;
  try {
    return predicatesPass(h.predicates, ctx);
  } catch (e) {
    return fail(rt, ctx, h, phase, e, now()) ? "blocked" : false;
  }
}

function beforeDone(rt: Runtime, ctx: Ctx, h: RuntimeHook, result: unknown, version: number, t0: number): void {
  if (result === false && !ctx._settled) ctx.block();
  const action: TraceAction = ctx._settled
    ? ctx._status === "blocked"
      ? "blocked"
      : "substituted"
    : ctx._inputVersion !== version
      ? "modified-input"
      : "proceeded";
  record(rt, ctx, h, "before", action, t0);
}

/** Runs adjacent before-hooks as one step, without a promise for the sync ones. */
export function runBefores(rt: Runtime, ctx: Ctx, hooks: readonly RuntimeHook[], start: number): MaybePromise {
  for (let i = start; i < hooks.length; i++) {
    if (ctx._settled) return;
    const h = hooks[i] as RuntimeHook;
    const ok = applies(rt, ctx, h, "before");
    if (ok !== true) {
      if (ok === "blocked") return;
      continue;
    }
    const t0 = rt.timing || h.timeoutMs !== undefined ? now() : 0;
    const version = ctx._inputVersion;
    let result: unknown;
    let then: Then | undefined;
    try {
      result = (h.fn as (c: Ctx) => unknown)(ctx);
      then = thenOf(result);
    } catch (e) {
      if (fail(rt, ctx, h, "before", e, t0)) return;
      continue;
    }
    if (then !== undefined) {
      const next = i + 1;
      return awaitHook(
        result as object,
        then,
        h,
        (value) => {
          beforeDone(rt, ctx, h, value, version, t0);
          return runBefores(rt, ctx, hooks, next);
        },
        (e: unknown) => {
          if (fail(rt, ctx, h, "before", e, t0)) return;
          return runBefores(rt, ctx, hooks, next);
        },
      );
    }
    if (overran(h, t0)) {
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
  if (typeof result === "string") ctx.toolResult = result;
  else if (result !== undefined && result !== null) {
    ignoredReturn(rt, ctx, h, result, t0);
    return;
  }
  record(rt, ctx, h, "after", ctx.toolResult !== prev ? "modified-result" : "proceeded", t0);
}

/** Runs adjacent after-hooks (stored outermost first) from the innermost out. */
export function runAfters(rt: Runtime, ctx: Ctx, hooks: readonly RuntimeHook[], start: number): MaybePromise {
  for (let i = start; i >= 0; i--) {
    const h = hooks[i] as RuntimeHook;
    const ok = applies(rt, ctx, h, "after");
    if (ok !== true) continue;
    const t0 = rt.timing || h.timeoutMs !== undefined ? now() : 0;
    const prev = ctx.toolResult;
    const decisions = ctx._decisions;
    let result: unknown;
    let then: Then | undefined;
    try {
      result = (h.fn as (c: Ctx) => unknown)(ctx);
      then = thenOf(result);
    } catch (e) {
      fail(rt, ctx, h, "after", e, t0);
      continue;
    }
    if (then !== undefined) {
      const next = i - 1;
      return awaitHook(
        result as object,
        then,
        h,
        (value) => {
          afterDone(rt, ctx, h, value, prev, decisions, t0);
          return runAfters(rt, ctx, hooks, next);
        },
        (e: unknown) => {
          fail(rt, ctx, h, "after", e, t0);
          return runAfters(rt, ctx, hooks, next);
        },
      );
    }
    if (overran(h, t0)) {
      fail(rt, ctx, h, "after", new HookTimeoutError(h.name, h.timeoutMs as number), t0);
      continue;
    }
    afterDone(rt, ctx, h, result, prev, decisions, t0);
  }
}

export { fatal as fatalErrors };
