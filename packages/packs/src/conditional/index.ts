import {
  type AfterToolCallHookType,
  type BeforeToolCallHookType,
  type ContextPredicate,
  definePack,
  type HookKind,
  type HookOptions,
  isPack,
  type Pack,
  type ToolMiddleware,
} from "@toolware/core";
import { packTypeError } from "../internal/errors.js";
import { hasFlagMatcher, toolFilter } from "../internal/tool-selector.js";
import {
  checkMatchers,
  type NameMatchers,
  type Narrowing,
  narrowPack,
  type RoleMatchers,
  type ToolMatchers,
} from "./narrow.js";

export type { RoleMatchers, ToolMatchers } from "./narrow.js";

/**
 * A middleware that declares its `next` parameter. A one-parameter function is rejected at
 * compile time: it reads as a before- or after-hook, which must go through `.before()` / `.after()`.
 */
export type DeclaredMiddleware<F> = F extends (ctx: never, next: never) => unknown
  ? Parameters<F>["length"] extends 0 | 1
    ? never
    : F
  : never;

/** Hooks, middlewares and packs made conditional; chain more conditions before choosing the kind. */
export interface Conditional {
  /** Also require `predicate` (checked per call). */
  when(predicate: ContextPredicate): Conditional;
  /** Also require that `predicate` is false (checked per call). */
  unless(predicate: ContextPredicate): Conditional;
  /** Also require one of these tools (decided once per chain; with `{ tag }` or `{ destructive }`, once per tool). */
  forTools(matchers: ToolMatchers): Conditional;
  /** Also require an agent with one of these roles (decided once per chain; calls without an agent do not match). */
  forAgents(roles: RoleMatchers): Conditional;
  /** A pack holding one conditional before-hook. */
  before(hook: BeforeToolCallHookType, options?: HookOptions): Pack;
  /** A pack holding one conditional after-hook. */
  after(hook: AfterToolCallHookType, options?: HookOptions): Pack;
  /** A copy of the pack (extras kept) whose every hook is conditional; all apply to a call or none does. */
  use<E extends object>(pack: Pack<E>): Pack<E>;
  /** A pack holding one conditional middleware. */
  use(middleware: ToolMiddleware, options?: HookOptions): Pack;
}

function fail(message: string): never {
  throw packTypeError("TOOLWARE_INVALID_ARGUMENT", `toolware/conditional: ${message}`);
}

function checkPredicate(predicate: unknown, what: string): ContextPredicate {
  if (typeof predicate !== "function") fail(`${what}() needs a predicate (ctx) => boolean`);
  return predicate as ContextPredicate;
}

function single(name: string, kind: HookKind, fn: unknown, options: HookOptions | undefined): Pack {
  if (typeof fn !== "function") {
    fail(`.${kind === "middleware" ? "use" : kind}() needs a function${isPack(fn) ? " (pass a pack to .use())" : ""}`);
  }
  return definePack({ name, hooks: [{ kind, fn, options } as never] });
}

function conditional(name: string, narrowings: readonly Narrowing[]): Conditional {
  const apply = <E extends object>(pack: Pack<E>): Pack<E> => narrowings.reduce((p, n) => narrowPack(p, n), pack);
  const more = (n: Narrowing): Conditional => conditional(name, [...narrowings, n]);
  function use<E extends object>(target: Pack<E> | ToolMiddleware, options?: HookOptions): Pack<E> | Pack {
    if (isPack(target)) return apply(target as Pack<E>);
    return apply(single(name, "middleware", target, options));
  }
  return {
    when: (predicate) => more({ predicate: checkPredicate(predicate, "when") }),
    unless: (predicate) => {
      const p = checkPredicate(predicate, "unless");
      return more({ predicate: (ctx) => !p(ctx) });
    },
    forTools: (matchers) => {
      if (hasFlagMatcher(matchers)) {
        return more({ predicate: toolFilter(matchers, "toolware/conditional: forTools()") as ContextPredicate });
      }
      checkMatchers(matchers, "forTools");
      return more({ tools: matchers as NameMatchers });
    },
    forAgents: (roles) => {
      checkMatchers(roles, "forAgents");
      return more({ agents: roles });
    },
    before: (hook, options) => apply(single(name, "before", hook, options)),
    after: (hook, options) => apply(single(name, "after", hook, options)),
    use: use as Conditional["use"],
  };
}

// The two-argument form: a pack, or a function that must be a middleware.
function direct(c: Conditional, what: string, target: unknown): Pack {
  if (isPack(target)) return c.use(target);
  if (typeof target !== "function") fail(`${what}(…, target) takes a pack or a middleware (ctx, next)`);
  if (target.length < 2) {
    fail(
      `${what}(…, fn) got a function without a \`next\` parameter; use ${what}(…).before(fn) or .after(fn) for a hook, .use(fn) for such a middleware`,
    );
  }
  return c.use(target as ToolMiddleware);
}

/**
 * Applies a hook, middleware or pack only when `predicate` holds for the call (checked per call;
 * prefer {@link forTools} / {@link forAgents} for name filters, which the core caches).
 *
 * @example
 * ```ts
 * const isSensitive = (ctx: ToolCallHookContext) => ctx.task?.description.toLowerCase().includes("sensitive") ?? false;
 * hooks.use(when(isSensitive).forTools("web_search").before(() => false));
 * hooks.use(when(isSensitive, auditPack)); // every hook of auditPack, only for sensitive tasks
 * ```
 */
export function when(predicate: ContextPredicate): Conditional;
export function when<E extends object>(predicate: ContextPredicate, target: Pack<E>): Pack<E>;
export function when<F extends ToolMiddleware>(predicate: ContextPredicate, target: F & DeclaredMiddleware<F>): Pack;
export function when(predicate: ContextPredicate, ...target: unknown[]): Conditional | Pack {
  const c = conditional("when", []).when(predicate);
  return target.length === 0 ? c : direct(c, "when", target[0]);
}

/**
 * The opposite of {@link when}: applies only when `predicate` is false.
 *
 * @example
 * ```ts
 * hooks.use(unless((ctx) => ctx.agent?.role === "admin").forTools("delete_*").before(() => false));
 * ```
 */
export function unless(predicate: ContextPredicate): Conditional;
export function unless<E extends object>(predicate: ContextPredicate, target: Pack<E>): Pack<E>;
export function unless<F extends ToolMiddleware>(predicate: ContextPredicate, target: F & DeclaredMiddleware<F>): Pack;
export function unless(predicate: ContextPredicate, ...target: unknown[]): Conditional | Pack {
  const c = conditional("unless", []).unless(predicate);
  return target.length === 0 ? c : direct(c, "unless", target[0]);
}

/**
 * Applies only to some tools, through the core's static `tools` filter (decided once per chain,
 * free per call), ANDed with any filter already on the hooks.
 *
 * @example
 * ```ts
 * hooks.use(forTools(["delete_file", "send_email"]).before((ctx) => ctx.block("needs a human")));
 * hooks.use(forTools("db_*", circuitBreaker({ failureThreshold: 3 })));
 * ```
 */
export function forTools(matchers: ToolMatchers): Conditional;
export function forTools<E extends object>(matchers: ToolMatchers, target: Pack<E>): Pack<E>;
export function forTools<F extends ToolMiddleware>(matchers: ToolMatchers, target: F & DeclaredMiddleware<F>): Pack;
export function forTools(matchers: ToolMatchers, ...target: unknown[]): Conditional | Pack {
  const c = conditional("for-tools", []).forTools(matchers);
  return target.length === 0 ? c : direct(c, "forTools", target[0]);
}

/**
 * Applies only to calls made by agents with one of these roles, through the core's static
 * `agents` filter. Calls without an agent never match.
 *
 * @example
 * ```ts
 * hooks.use(forAgents("junior_agent").forTools(["delete_file", "send_email"]).before(() => false));
 * ```
 */
export function forAgents(roles: RoleMatchers): Conditional;
export function forAgents<E extends object>(roles: RoleMatchers, target: Pack<E>): Pack<E>;
export function forAgents<F extends ToolMiddleware>(roles: RoleMatchers, target: F & DeclaredMiddleware<F>): Pack;
export function forAgents(roles: RoleMatchers, ...target: unknown[]): Conditional | Pack {
  const c = conditional("for-agents", []).forAgents(roles);
  return target.length === 0 ? c : direct(c, "forAgents", target[0]);
}
