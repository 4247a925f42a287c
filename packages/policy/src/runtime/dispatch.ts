import {
  type AfterToolCallHookType,
  type BeforeToolCallHookType,
  type HookSpec,
  messageOf,
  normalizeName,
  type ToolCallHookContext,
  type ToolFilter,
  type ToolMiddleware,
} from "@toolware/core";
import { compileNames } from "./match.js";

// A watched policy's packs change with each reload, but a pack's hooks are fixed when it is registered: so the
// watched pack runs the packs of the call's own policy version itself, in one middleware, with the core's rules
// (higher priority further out, `false` or `ctx.block()` blocks, a string from an after-hook replaces the result,
// `onError` as each hook says, "block" by default).

/** A hook with the test of whether it applies to a call. @internal */
export type Runnable = { readonly spec: HookSpec; readonly applies: (ctx: ToolCallHookContext) => boolean };

function nameTest(entry: unknown): ((ctx: ToolCallHookContext) => boolean) | undefined {
  if (typeof entry === "string") {
    const test = compileNames([entry]);
    return (ctx) => test(ctx.toolName);
  }
  if (entry instanceof RegExp) {
    const re = new RegExp(entry.source, entry.flags.replace(/[gy]/g, ""));
    return (ctx) => re.test(ctx.toolName) || re.test(normalizeName(ctx.toolName));
  }
  if (typeof entry === "object" && entry !== null && typeof (entry as { name?: unknown }).name === "string") {
    const name = normalizeName((entry as { name: string }).name);
    return (ctx) => normalizeName(ctx.toolName) === name;
  }
  return undefined;
}

/** A hook's `tools` filter as a test; an entry it cannot read fails closed by applying the hook. */
export function filterTest(filter: ToolFilter | undefined): (ctx: ToolCallHookContext) => boolean {
  if (filter === undefined) return () => true;
  if (typeof filter === "function") return filter;
  const entries = (Array.isArray(filter) ? filter : [filter]) as readonly unknown[];
  const tests = entries.map((e) => nameTest(e) ?? (() => true));
  return (ctx) => tests.some((t) => t(ctx));
}

/** The hooks of some packs, ready to run in order. @internal */
export function runnable(
  specs: readonly { spec: HookSpec; also: (ctx: ToolCallHookContext) => boolean }[],
): Runnable[] {
  return specs
    .map(({ spec, also }, i) => {
      const tools = filterTest(spec.options?.tools);
      return { spec, i, applies: (ctx: ToolCallHookContext) => also(ctx) && tools(ctx) };
    })
    .sort((a, b) => (b.spec.options?.priority ?? 0) - (a.spec.options?.priority ?? 0) || a.i - b.i)
    .map(({ spec, applies }) => ({ spec, applies }));
}

function settled(ctx: ToolCallHookContext): boolean {
  return ctx.status === "blocked" || (ctx.toolResult !== undefined && !ctx.toolRan);
}

async function guarded<T>(ctx: ToolCallHookContext, spec: HookSpec, run: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const policy = spec.options?.onError ?? "block";
    const name = spec.options?.name ?? spec.kind;
    if (policy === "throw") throw error;
    if (policy === "continue") ctx.reportError(`policy:${name}`, error);
    else ctx.block(`hook ${name} failed: ${messageOf(error)}`);
    return undefined;
  }
}

/** Runs `hooks` (those that apply to the call) around `next`, the rest of the chain. @internal */
export async function runHooks(
  ctx: ToolCallHookContext,
  hooks: readonly Runnable[],
  i: number,
  next: () => Promise<void>,
): Promise<void> {
  let at = i;
  while (at < hooks.length && !(hooks[at] as Runnable).applies(ctx)) at++;
  if (at === hooks.length) return next();
  const { spec } = hooks[at] as Runnable;
  const inner = () => runHooks(ctx, hooks, at + 1, next);
  if (spec.kind === "before") {
    const result = await guarded(ctx, spec, () => (spec.fn as BeforeToolCallHookType)(ctx));
    if (result === false) ctx.block();
    if (settled(ctx)) return;
    return inner();
  }
  if (spec.kind === "middleware") {
    await guarded(ctx, spec, () => (spec.fn as ToolMiddleware)(ctx, inner));
    return;
  }
  try {
    await inner();
  } finally {
    const result = await guarded(ctx, spec, () => (spec.fn as AfterToolCallHookType)(ctx));
    if (typeof result === "string") ctx.toolResult = result;
  }
}
