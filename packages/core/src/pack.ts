import { messageOf, ToolwareTypeError } from "./errors.js";
import type { ToolHooksEvents } from "./events.js";
import { showValue } from "./keys.js";
import type { AfterToolCallHookType, BeforeToolCallHookType, HookOptions, ToolMiddleware } from "./types.js";

const PACK = Symbol.for("toolware.pack");
// The identity of a stateful pack's state. Enumerable, so a copy made by spreading the pack
// (as the conditional pack's narrowing does) shares it: the copy counts on the same state.
const STATE = Symbol.for("toolware.pack.state");

/** One hook inside a pack. */
export type HookSpec =
  | { readonly kind: "before"; readonly fn: BeforeToolCallHookType; readonly options?: HookOptions }
  | { readonly kind: "after"; readonly fn: AfterToolCallHookType; readonly options?: HookOptions }
  | { readonly kind: "middleware"; readonly fn: ToolMiddleware; readonly options?: HookOptions };

/** What {@link definePack} takes: a name, the hooks, and any extra API the pack exposes. */
export interface PackSpec {
  readonly name: string;
  readonly hooks: readonly HookSpec[];
  /**
   * The pack keeps state across calls (counters, a cache, remembered decisions): registering
   * this one instance twice on the same layer is refused, since every call would count twice.
   * Call the pack's factory again for independent state.
   */
  readonly stateful?: boolean;
  /**
   * Listeners of the ToolHooks' events (`"call:end"`, …) that live as long as the pack is registered
   * on a ToolHooks (its global layer): added by `hooks.use(pack)`, removed with the pack. They hear
   * only the calls the pack's hooks would apply to (its `tools` and `agents` filters). On an agent or
   * crew layer, which emit no call events, they are not added. For calls the hooks never saw, such
   * as `call:end` with `refused: true`.
   */
  readonly observe?: PackObservers;
}

/** The listeners of {@link PackSpec.observe}, by event name. */
export type PackObservers = { readonly [K in keyof ToolHooksEvents]?: (payload: ToolHooksEvents[K]) => void };

/** A bundle of hooks registered and removed together with `use(pack)`. */
export type Pack<E extends object = object> = PackSpec & E & { readonly [PACK]: true };

function read(from: object, key: string, where: string): unknown {
  try {
    return (from as Record<string, unknown>)[key];
  } catch (error) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_PACK",
      `${where}: \`${key}\` could not be read: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
}

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
  if (spec === null || typeof spec !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_PACK", `definePack() takes an object, got ${showValue(spec)}`);
  }
  // name, hooks, kind, fn and stateful are read once: a getter that passed the checks must not hand
  // `use()` a different value later (a hook whose kind turned into "bogus" would never run).
  const name = read(spec, "name", "the pack");
  if (typeof name !== "string" || name === "") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_PACK", "definePack() needs a non-empty `name`");
  }
  const given = read(spec, "hooks", `pack ${name}`);
  if (!Array.isArray(given)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_PACK", `pack ${name} needs a \`hooks\` array`);
  }
  const hooks = Object.freeze(
    [...(given as readonly unknown[])].map((hook, i): HookSpec => {
      const where = `pack ${name}, hook ${i}`;
      if (hook === null || typeof hook !== "object") {
        throw new ToolwareTypeError(
          "TOOLWARE_INVALID_PACK",
          `${where}: \`kind\` must be "before", "after" or "middleware"`,
        );
      }
      const kind = read(hook, "kind", where);
      if (kind !== "before" && kind !== "after" && kind !== "middleware") {
        throw new ToolwareTypeError(
          "TOOLWARE_INVALID_PACK",
          `${where}: \`kind\` must be "before", "after" or "middleware"`,
        );
      }
      const fn = read(hook, "fn", where);
      if (typeof fn !== "function") {
        throw new ToolwareTypeError("TOOLWARE_INVALID_PACK", `${where}: \`fn\` must be a function`);
      }
      const options = read(hook, "options", where);
      return Object.freeze(options === undefined ? { kind, fn } : { kind, fn, options }) as HookSpec;
    }),
  );
  const stateful = read(spec, "stateful", `pack ${name}`);
  if (stateful !== undefined && typeof stateful !== "boolean") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_PACK",
      `pack ${name}: \`stateful\` must be true or false, got ${showValue(stateful)}`,
    );
  }
  const observe = readObservers(read(spec, "observe", `pack ${name}`), name);
  // Copy descriptors, not values, so getters among the extras stay live.
  const descriptors: PropertyDescriptorMap = Object.getOwnPropertyDescriptors(spec);
  descriptors.name = { value: name, enumerable: true };
  descriptors.hooks = { value: hooks, enumerable: true };
  if (stateful !== undefined) descriptors.stateful = { value: stateful, enumerable: true };
  if (observe !== undefined) descriptors.observe = { value: observe, enumerable: true };
  const pack = Object.defineProperties({}, descriptors);
  Object.defineProperty(pack, PACK, { value: true });
  const inherited = (spec as { [STATE]?: unknown })[STATE];
  if (stateful === true) {
    const state = typeof inherited === "object" && inherited !== null ? inherited : {};
    Object.defineProperty(pack, STATE, { value: state, enumerable: true });
  } else if (inherited !== undefined) {
    delete (pack as { [STATE]?: unknown })[STATE];
  }
  return Object.freeze(pack) as Pack<E>;
}

// Read once, into a frozen copy: the listeners `use()` adds are the ones that passed the check.
function readObservers(given: unknown, name: string): PackObservers | undefined {
  if (given === undefined) return undefined;
  if (given === null || typeof given !== "object" || Array.isArray(given)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_PACK",
      `pack ${name}: \`observe\` must be an object of event listeners, got ${showValue(given)}`,
    );
  }
  const copy: Record<string, unknown> = {};
  for (const event of Object.keys(given)) {
    const fn = read(given, event, `pack ${name}, observe`);
    if (typeof fn !== "function") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_PACK",
        `pack ${name}: \`observe["${event}"]\` must be a function, got ${showValue(fn)}`,
      );
    }
    copy[event] = fn;
  }
  return Object.freeze(copy) as PackObservers;
}

/** The identity of a stateful pack's state (shared by its spread copies); `undefined` for other packs. @internal */
export function packState(pack: Pack): object | undefined {
  return (pack as { [STATE]?: object })[STATE];
}

/**
 * Refuses a stateful pack whose state is already registered on this layer: every call would
 * count twice. `registered` is the layer's hooks. @internal
 */
export function assertNotRegistered(
  pack: Pack,
  registered: readonly { readonly pack: Pack | undefined; readonly name: string }[],
  layer: string,
): void {
  const state = packState(pack);
  if (state === undefined) return;
  const twin = registered.find((r) => r.pack !== undefined && packState(r.pack) === state);
  if (twin === undefined) return;
  throw new ToolwareTypeError(
    "TOOLWARE_DUPLICATE_PACK",
    `the pack ${pack.name} is already registered on this ${layer} layer (hook ${twin.name}), and it keeps state ` +
      "(counters, a cache, remembered decisions) that both registrations would share: every call would count twice. " +
      "For independent state, call the pack's factory again, once per registration (hooks.use(rateLimit({ … })) " +
      "twice); to change how it is registered, remove it first (layer.remove(pack))",
  );
}

/**
 * The refusal of a call whose layers (global, crew, agent) hold one stateful pack instance more than
 * once: merged into one chain it would count each call twice (two limits, two audit lines).
 * `regs` are the hooks the call would run. Undefined when there is no such pack. @internal
 */
export function twiceInOneCall(
  regs: readonly { readonly pack: Pack | undefined; readonly layer: string }[],
): ToolwareTypeError | undefined {
  const layers = new Map<object, string>();
  for (const r of regs) {
    const state = r.pack === undefined ? undefined : packState(r.pack);
    if (state === undefined) continue;
    const seen = layers.get(state);
    if (seen === undefined) layers.set(state, r.layer);
    else if (seen !== r.layer) {
      return new ToolwareTypeError(
        "TOOLWARE_DUPLICATE_PACK",
        `the pack ${(r.pack as Pack).name} is registered on both the ${seen} and the ${r.layer} layer of this call, ` +
          "and it keeps state (counters, a cache, remembered decisions): merged into one chain it would count the call " +
          "twice, so the call was refused before any hook ran. Register the instance on one of these layers, or call " +
          "the pack's factory again for each layer",
      );
    }
  }
  return undefined;
}

/** True for values made by {@link definePack}. */
export function isPack(value: unknown): value is Pack {
  return typeof value === "object" && value !== null && (value as { [PACK]?: unknown })[PACK] === true;
}
