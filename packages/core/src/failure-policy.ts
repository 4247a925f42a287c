import { blockForFailure } from "./call-state.js";
import type { ToolCallHookContext } from "./context.js";
import { HookFailedError, messageOf } from "./errors.js";
import { predicatesPass } from "./filter.js";
import { now, type Runtime, type RuntimeHook } from "./runtime.js";
import { record } from "./trace.js";

type Ctx = ToolCallHookContext;

// What a failing hook (or one of its predicates, or its time limit) does to the call, by its
// `onError` policy: "continue" goes on as if it had not run, "block" fails the call closed,
// "throw" makes `invoke` reject.

/** Errors of "throw"-policy hooks: every wrapper outside lets them through untouched. @internal */
export const fatalErrors = new WeakSet<object>();

/** Applies a failed hook's policy. Returns true when the call is now blocked. @internal */
export function fail(
  rt: Runtime,
  ctx: Ctx,
  h: RuntimeHook,
  phase: "before" | "after",
  error: unknown,
  t0: number,
): boolean {
  if (fatalErrors.has(error as object)) throw error;
  rt.hookFailed(ctx, h, phase, error);
  const reason = `hook ${h.name} failed: ${messageOf(error)}`;
  record(rt, ctx, h, phase, "failed", t0, error, reason);
  if (h.policy === "throw") {
    const err = new HookFailedError(h.name, h.info.layer, h.info.kind, phase, error);
    fatalErrors.add(err);
    throw err;
  }
  if (h.policy === "continue") return false;
  blockForFailure(ctx, phase, reason, error);
  return true;
}

/** Runs a hook's per-call predicates; a predicate that throws counts as the hook failing. @internal */
export function applies(rt: Runtime, ctx: Ctx, h: RuntimeHook, phase: "before" | "after"): boolean | "blocked" {
  // Most hooks have none: this much inlines into every runner, the rest stays out of line.
  return h.predicates === null ? true : predicatesApply(rt, ctx, h, phase);
}

function predicatesApply(rt: Runtime, ctx: Ctx, h: RuntimeHook, phase: "before" | "after"): boolean | "blocked" {
  try {
    return predicatesPass(h.predicates as NonNullable<RuntimeHook["predicates"]>, ctx);
  } catch (e) {
    return fail(rt, ctx, h, phase, e, now()) ? "blocked" : false;
  }
}
