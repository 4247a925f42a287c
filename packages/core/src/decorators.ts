import type { ToolCallHookContext } from "./context.js";
import { defaultToolHooks } from "./default-hooks.js";
import { Crew } from "./entities.js";
import { messageOf, ToolwareTypeError } from "./errors.js";
import { checkOptions } from "./filter.js";
import { HookRegistry } from "./registry.js";
import type {
  AfterHookResult,
  AfterToolCallHookType,
  BeforeHookResult,
  BeforeToolCallHookType,
  HookFunction,
  HookOptions,
} from "./types.js";

/** A before-hook written as a method. */
export type BeforeHookMethod<This> = (
  this: This,
  ctx: ToolCallHookContext,
) => BeforeHookResult | Promise<BeforeHookResult>;
/** An after-hook written as a method. */
export type AfterHookMethod<This> = (
  this: This,
  ctx: ToolCallHookContext,
) => AfterHookResult | Promise<AfterHookResult>;

/** Hook options, plus the app a free function registers on (default: `defaultToolHooks`). */
export interface DecoratorOptions extends HookOptions {
  hooks?: HookRegistry;
}

/** What `beforeToolCall(options)` returns: wraps a function, or decorates a method. */
export interface BeforeDecorator<Owner> {
  <F extends BeforeToolCallHookType>(fn: F): F;
  <This extends Owner, F extends BeforeHookMethod<This>>(
    method: F,
    context: ClassMethodDecoratorContext<This, F>,
  ): void;
}

/** What `afterToolCall(options)` returns: wraps a function, or decorates a method. */
export interface AfterDecorator<Owner> {
  <F extends AfterToolCallHookType>(fn: F): F;
  <This extends Owner, F extends AfterHookMethod<This>>(method: F, context: ClassMethodDecoratorContext<This, F>): void;
}

type Kind = "before" | "after";

function isMethodContext(value: unknown): value is ClassMethodDecoratorContext {
  return typeof value === "object" && value !== null && "kind" in value && "addInitializer" in value;
}

// The options are read once, where the decorator is written: every instance registers with the
// values that were checked then, whatever a getter among them would answer later.
function split(options: DecoratorOptions): [HookRegistry, HookOptions] {
  let hooks: unknown;
  let rest: HookOptions;
  try {
    ({ hooks, ...rest } = options);
  } catch (error) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `the decorator options could not be read: ${messageOf(error)}`,
      { cause: error },
    );
  }
  if (hooks !== undefined && !(hooks instanceof HookRegistry)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      "the decorator option `hooks` must be a ToolHooks, Crew or Agent",
    );
  }
  return [hooks ?? defaultToolHooks, checkOptions(rest).values];
}

function apply(
  kind: Kind,
  crewOnly: boolean,
  [target, hookOptions]: [HookRegistry, HookOptions],
  fn: unknown,
  context: unknown,
): unknown {
  const label = `@${kind}ToolCall${crewOnly ? "Crew" : ""}`;
  if (typeof fn !== "function")
    throw new ToolwareTypeError("TOOLWARE_INVALID_DECORATOR", `${label} decorates a function or a method`);
  if (!isMethodContext(context)) {
    if (crewOnly) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_DECORATOR",
        `${label} decorates methods of a Crew class; use ${kind}ToolCall() for free functions`,
      );
    }
    if (kind === "before") target.before(fn as BeforeToolCallHookType, hookOptions);
    else target.after(fn as AfterToolCallHookType, hookOptions);
    return fn;
  }
  if (context.kind !== "method" || context.static || context.private) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_DECORATOR",
      `${label} decorates public instance methods, not ${String(context.name)}`,
    );
  }
  const name = hookOptions.name ?? String(context.name);
  context.addInitializer(function register(this: unknown) {
    if (crewOnly ? !(this instanceof Crew) : !(this instanceof HookRegistry)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_DECORATOR",
        `${label} on ${String(context.name)} needs a class that extends ${crewOnly ? "Crew" : "Crew (or Agent, ToolHooks)"}`,
      );
    }
    const bound = (fn as HookFunction).bind(this) as HookFunction;
    const layer = this as HookRegistry;
    if (kind === "before") layer.before(bound as BeforeToolCallHookType, { ...hookOptions, name });
    else layer.after(bound as AfterToolCallHookType, { ...hookOptions, name });
  });
  return undefined;
}

function decorator(kind: Kind, crewOnly: boolean) {
  return (first: unknown, context?: unknown): unknown => {
    if (typeof first === "function") return apply(kind, crewOnly, [defaultToolHooks, {}], first, context);
    if (first === null || typeof first !== "object") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_DECORATOR",
        `${kind}ToolCall() takes a function or an options object`,
      );
    }
    // Checked now, so a misspelt option fails where the class is defined, not at its first instance.
    const checked = split(first as DecoratorOptions);
    return (fn: unknown, ctx?: unknown) => apply(kind, crewOnly, checked, fn, ctx);
  };
}

/**
 * Registers a before-hook. On a free function it registers globally (on
 * `defaultToolHooks`, or `options.hooks`) and returns the function; as a
 * method decorator it registers the bound method on that crew instance only.
 *
 * @example
 * ```ts
 * const blockDangerous = beforeToolCall((ctx) => !["delete_database", "drop_table"].includes(ctx.toolName));
 * const onlyDb = beforeToolCall({ tools: "db_*" })((ctx) => { … });
 *
 * class MyCrew extends Crew {
 *   @beforeToolCall({ tools: ["web_search"] })
 *   requireQuery(ctx: ToolCallHookContext) { if (!ctx.toolInput.query) return false; }
 * }
 * ```
 */
export function beforeToolCall<F extends BeforeToolCallHookType>(fn: F): F;
export function beforeToolCall<This extends HookRegistry, F extends BeforeHookMethod<This>>(
  method: F,
  context: ClassMethodDecoratorContext<This, F>,
): void;
export function beforeToolCall(options: DecoratorOptions): BeforeDecorator<HookRegistry>;
export function beforeToolCall(first: unknown, context?: unknown): unknown {
  return decorator("before", false)(first, context);
}

/**
 * Registers an after-hook; see {@link beforeToolCall} for the two forms.
 *
 * @example
 * ```ts
 * afterToolCall((ctx) => ctx.toolResult?.replace("password", "[REDACTED]"));
 * ```
 */
export function afterToolCall<F extends AfterToolCallHookType>(fn: F): F;
export function afterToolCall<This extends HookRegistry, F extends AfterHookMethod<This>>(
  method: F,
  context: ClassMethodDecoratorContext<This, F>,
): void;
export function afterToolCall(options: DecoratorOptions): AfterDecorator<HookRegistry>;
export function afterToolCall(first: unknown, context?: unknown): unknown {
  return decorator("after", false)(first, context);
}

/**
 * Method decorator: a before-hook on this crew instance's layer only.
 *
 * @example
 * ```ts
 * class MyCrew extends Crew {
 *   @beforeToolCallCrew
 *   validate(ctx: ToolCallHookContext) { if (ctx.toolName === "web_search" && !ctx.toolInput.query) return false; }
 * }
 * ```
 */
export function beforeToolCallCrew<This extends Crew, F extends BeforeHookMethod<This>>(
  method: F,
  context: ClassMethodDecoratorContext<This, F>,
): void;
export function beforeToolCallCrew(options: HookOptions): BeforeDecorator<Crew>;
export function beforeToolCallCrew(first: unknown, context?: unknown): unknown {
  return decorator("before", true)(first, context);
}

/**
 * Method decorator: an after-hook on this crew instance's layer only.
 *
 * @example
 * ```ts
 * class MyCrew extends Crew {
 *   @afterToolCallCrew
 *   logResults(ctx: ToolCallHookContext) { console.log(`✅ ${ctx.toolName} completed`); }
 * }
 * ```
 */
export function afterToolCallCrew<This extends Crew, F extends AfterHookMethod<This>>(
  method: F,
  context: ClassMethodDecoratorContext<This, F>,
): void;
export function afterToolCallCrew(options: HookOptions): AfterDecorator<Crew>;
export function afterToolCallCrew(first: unknown, context?: unknown): unknown {
  return decorator("after", true)(first, context);
}
