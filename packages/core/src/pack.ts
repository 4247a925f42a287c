import type { AfterToolCallHookType, BeforeToolCallHookType, HookOptions, ToolMiddleware } from "./types.js";

const PACK = Symbol.for("toolware.pack");

/** One hook inside a pack. */
export type HookSpec =
  | { readonly kind: "before"; readonly fn: BeforeToolCallHookType; readonly options?: HookOptions }
  | { readonly kind: "after"; readonly fn: AfterToolCallHookType; readonly options?: HookOptions }
  | { readonly kind: "middleware"; readonly fn: ToolMiddleware; readonly options?: HookOptions };

/** What {@link definePack} takes: a name, the hooks, and any extra API the pack exposes. */
export interface PackSpec {
  readonly name: string;
  readonly hooks: readonly HookSpec[];
}

/** A bundle of hooks registered and removed together with `use(pack)`. */
export type Pack<E extends object = object> = PackSpec & E & { readonly [PACK]: true };

/**
 * Bundles several hooks so that `hooks.use(pack)` registers them all and
 * returns one unregister function. Extra properties (such as a `stats()`
 * method) stay on the returned pack.
 *
 * @example
 * ```ts
 * const timing = definePack({
 *   name: "timing",
 *   hooks: [
 *     { kind: "before", fn: (ctx) => { ctx.state.startedAt = performance.now(); } },
 *     { kind: "after", fn: (ctx) => { record(ctx.toolName, performance.now() - ctx.state.startedAt!); } },
 *   ],
 *   report: () => summary(),
 * });
 * hooks.use(timing);
 * timing.report();
 * ```
 */
export function definePack<const E extends object>(spec: PackSpec & E): Pack<E> {
  if (spec === null || typeof spec !== "object") throw new TypeError("toolware: definePack() takes an object");
  if (typeof spec.name !== "string" || spec.name === "") {
    throw new TypeError("toolware: definePack() needs a non-empty `name`");
  }
  if (!Array.isArray(spec.hooks)) throw new TypeError(`toolware: pack ${spec.name} needs a \`hooks\` array`);
  spec.hooks.forEach((hook: HookSpec, i: number) => {
    if (hook === null || typeof hook !== "object" || !["before", "after", "middleware"].includes(hook.kind)) {
      throw new TypeError(`toolware: pack ${spec.name}, hook ${i}: \`kind\` must be "before", "after" or "middleware"`);
    }
    if (typeof hook.fn !== "function") {
      throw new TypeError(`toolware: pack ${spec.name}, hook ${i}: \`fn\` must be a function`);
    }
  });
  // Copy descriptors, not values, so getters among the extras stay live.
  const pack = Object.defineProperties({}, Object.getOwnPropertyDescriptors(spec));
  Object.defineProperty(pack, "hooks", { value: Object.freeze([...spec.hooks]), enumerable: true });
  Object.defineProperty(pack, PACK, { value: true });
  return Object.freeze(pack) as Pack<E>;
}

/** True for values made by {@link definePack}. */
export function isPack(value: unknown): value is Pack {
  return typeof value === "object" && value !== null && (value as { [PACK]?: unknown })[PACK] === true;
}
