import { ToolHooks } from "./tool-hooks.js";
import type { AfterToolCallHookType, BeforeToolCallHookType, HookOptions, Unregister } from "./types.js";

/**
 * The process-wide default app behind the CrewAI-style function API and the
 * decorators when no instance is given.
 *
 * @example
 * ```ts
 * import { defaultToolHooks } from "@toolware/core";
 * await defaultToolHooks.invoke(tool, input);
 * ```
 */
export const defaultToolHooks: ToolHooks = new ToolHooks();

/**
 * Registers a before-hook on the default instance.
 *
 * @example
 * ```ts
 * registerBeforeToolCallHook((ctx) => { console.log(`Tool: ${ctx.toolName}`); });
 * ```
 */
export function registerBeforeToolCallHook(hook: BeforeToolCallHookType, options?: HookOptions): Unregister {
  return defaultToolHooks.before(hook, options);
}

/**
 * Registers an after-hook on the default instance.
 *
 * @example
 * ```ts
 * registerAfterToolCallHook((ctx) => ctx.toolResult?.replace("password", "[REDACTED]"));
 * ```
 */
export function registerAfterToolCallHook(hook: AfterToolCallHookType, options?: HookOptions): Unregister {
  return defaultToolHooks.after(hook, options);
}

/**
 * Removes every before-registration of `hook` from the default instance.
 *
 * @example
 * ```ts
 * const removed = unregisterBeforeToolCallHook(myHook); // true if it was registered
 * ```
 */
export function unregisterBeforeToolCallHook(hook: BeforeToolCallHookType): boolean {
  return defaultToolHooks._drop((r) => r.kind === "before" && r.fn === hook) > 0;
}

/**
 * Removes every after-registration of `hook` from the default instance.
 *
 * @example
 * ```ts
 * unregisterAfterToolCallHook(sanitize);
 * ```
 */
export function unregisterAfterToolCallHook(hook: AfterToolCallHookType): boolean {
  return defaultToolHooks._drop((r) => r.kind === "after" && r.fn === hook) > 0;
}

/**
 * Removes all before-hooks of the default instance; returns how many.
 *
 * @example
 * ```ts
 * const count = clearBeforeToolCallHooks();
 * ```
 */
export function clearBeforeToolCallHooks(): number {
  return defaultToolHooks.clear("before");
}

/**
 * Removes all after-hooks of the default instance; returns how many.
 *
 * @example
 * ```ts
 * const count = clearAfterToolCallHooks();
 * ```
 */
export function clearAfterToolCallHooks(): number {
  return defaultToolHooks.clear("after");
}

/**
 * Removes every hook of the default instance (middlewares too); returns the
 * numbers of before- and after-hooks removed.
 *
 * @example
 * ```ts
 * const [before, after] = clearAllToolCallHooks();
 * ```
 */
export function clearAllToolCallHooks(): [before: number, after: number] {
  const before = defaultToolHooks.clear("before");
  const after = defaultToolHooks.clear("after");
  defaultToolHooks.clear();
  return [before, after];
}

/**
 * The before-hooks of the default instance, in registration order (a copy).
 *
 * @example
 * ```ts
 * console.log(`Registered: ${getBeforeToolCallHooks().length} before`);
 * ```
 */
export function getBeforeToolCallHooks(): BeforeToolCallHookType[] {
  return defaultToolHooks
    .list()
    .filter((h) => h.kind === "before")
    .map((h) => h.fn as BeforeToolCallHookType);
}

/**
 * The after-hooks of the default instance, in registration order (a copy).
 *
 * @example
 * ```ts
 * getAfterToolCallHooks().length;
 * ```
 */
export function getAfterToolCallHooks(): AfterToolCallHookType[] {
  return defaultToolHooks
    .list()
    .filter((h) => h.kind === "after")
    .map((h) => h.fn as AfterToolCallHookType);
}
