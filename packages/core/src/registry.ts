import { EventEmitter } from "eventemitter3";
import { ToolwareTypeError } from "./errors.js";
import type { RegistryEvents } from "./events.js";
import { closestKey, showValue } from "./keys.js";
import { observePack } from "./observe-pack.js";
import { assertNotRegistered, isPack, type Pack } from "./pack.js";
import { createRegistration, packRegistrations, type Registration } from "./registration.js";
import type {
  AfterToolCallHookType,
  BeforeToolCallHookType,
  HookFunction,
  HookInfo,
  HookKind,
  HookOptions,
  LayerKind,
  Tool,
  ToolMiddleware,
  Unregister,
} from "./types.js";

// The events each kind of layer emits (docs/registration.md#events): a crew or agent layer only
// reports changes to its own hooks.
const LAYER_EVENTS: readonly string[] = ["hook:added", "hook:removed"];
const CALL_EVENTS: readonly string[] = [
  "call:start",
  "call:blocked",
  "call:error",
  "call:end",
  "hook:error",
  "hook:ignored-return",
  ...LAYER_EVENTS,
];

/** Options that narrow a hook to one tool also type its context with that tool's input and output. */
export type ToolScopedOptions<I extends object, O> = HookOptions & { tools: Tool<I, O> };

/**
 * One layer of hooks (global, crew or agent) with the registration API shared
 * by `ToolHooks`, `Crew` and `Agent`.
 */
export class HookRegistry<Events extends RegistryEvents = RegistryEvents> {
  /** @internal */ readonly _layer: LayerKind;
  /** @internal */ _regs: readonly Registration[] = [];
  /** @internal bumped on every change so cached chains know they are stale */ _version = 0;
  /** @internal */ readonly _emitter = new EventEmitter();
  /** @internal true once anyone listened: until then a call builds no event payloads at all */ _listened = false;
  readonly #handles = new WeakMap<Unregister, readonly Registration[]>();
  readonly #guarded = new WeakMap<object, Map<string, (payload: unknown) => void>>();

  /** @internal */
  constructor(layer: LayerKind) {
    this._layer = layer;
  }

  /**
   * Adds a Koa-style middleware, or every hook of a pack.
   *
   * @example
   * ```ts
   * const off = hooks.use(async (ctx, next) => { await next(); }, { tools: "db_*" });
   * off(); // removes it again
   * ```
   */
  use<I extends object, O>(middleware: ToolMiddleware<I, O>, options: ToolScopedOptions<I, O>): Unregister;
  use(middleware: ToolMiddleware | Pack, options?: HookOptions): Unregister;
  use(middleware: ToolMiddleware | Pack, options?: HookOptions): Unregister {
    if (isPack(middleware)) return this.#addPack(middleware, options);
    return this.#add("middleware", middleware as HookFunction, options);
  }

  /**
   * Adds a before-hook: return exactly `false` (or call `ctx.block(reason)`) to block the call.
   *
   * @example
   * ```ts
   * hooks.before((ctx) => ctx.toolName !== "delete_file");
   * ```
   */
  before<I extends object, O>(hook: BeforeToolCallHookType<I, O>, options: ToolScopedOptions<I, O>): Unregister;
  before(hook: BeforeToolCallHookType, options?: HookOptions): Unregister;
  before(hook: BeforeToolCallHookType, options?: HookOptions): Unregister {
    return this.#add("before", hook as HookFunction, options);
  }

  /**
   * Adds an after-hook: return a string to replace the agent-facing result.
   *
   * @example
   * ```ts
   * hooks.after((ctx) => ctx.toolResult?.replaceAll("password", "[REDACTED]"));
   * ```
   */
  after<I extends object, O>(hook: AfterToolCallHookType<I, O>, options: ToolScopedOptions<I, O>): Unregister;
  after(hook: AfterToolCallHookType, options?: HookOptions): Unregister;
  after(hook: AfterToolCallHookType, options?: HookOptions): Unregister {
    return this.#add("after", hook as HookFunction, options);
  }

  /**
   * Removes hooks: a function removes every registration of it, a pack every
   * hook it added, an unregister handle exactly its own registration(s).
   *
   * @example
   * ```ts
   * hooks.before(audit);
   * hooks.remove(audit); // true
   * ```
   */
  remove(target: HookFunction | Unregister | Pack): boolean {
    const own = this.#handles.get(target as Unregister);
    const doomed =
      own !== undefined
        ? new Set(own)
        : new Set(this._regs.filter((r) => (isPack(target) ? r.pack === target : r.fn === target)));
    return this._drop((r) => doomed.has(r)) > 0;
  }

  /**
   * Removes every hook of this layer, or only those of one kind; returns how many went.
   *
   * @example
   * ```ts
   * hooks.clear("before"); // 2
   * ```
   */
  clear(kind?: HookKind): number {
    // A misspelt kind would clear nothing and say 0, leaving the caller to believe the hooks are gone.
    if (kind !== undefined && kind !== "before" && kind !== "after" && kind !== "middleware") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `clear() takes "before", "after", "middleware" or nothing, got ${showValue(kind)}`,
      );
    }
    return this._drop((r) => kind === undefined || r.kind === kind);
  }

  /**
   * Describes the hooks of this layer in registration order (a copy).
   *
   * @example
   * ```ts
   * hooks.list().map((h) => `${h.kind} ${h.name}`);
   * ```
   */
  list(): HookInfo[] {
    return this._regs.map((r) => r.info);
  }

  /**
   * Listens to an event; returns a function that stops listening. A listener
   * that throws (or rejects) is reported and never breaks a call.
   *
   * @example
   * ```ts
   * const stop = hooks.on("hook:added", (info) => console.log("added", info.name));
   * ```
   */
  on<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => unknown): () => void {
    this.#checkListener("on", event, listener);
    this._listened = true;
    this._emitter.on(event, this.#guard(event, listener as (payload: unknown) => unknown));
    return () => this.off(event, listener);
  }

  /**
   * Like `on`, for the next event only.
   *
   * @example
   * ```ts
   * hooks.once("call:end", ({ outcome }) => console.log(outcome.status));
   * ```
   */
  once<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => unknown): () => void {
    this.#checkListener("once", event, listener);
    this._listened = true;
    this._emitter.once(event, this.#guard(event, listener as (payload: unknown) => unknown));
    return () => this.off(event, listener);
  }

  /**
   * Stops a listener added with `on` or `once`.
   *
   * @example
   * ```ts
   * hooks.off("call:end", listener);
   * ```
   */
  off<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => unknown): void {
    const guarded = this.#guarded.get(listener)?.get(event);
    if (guarded !== undefined) this._emitter.off(event, guarded);
  }

  /** Where a listener's failure is reported; `ToolHooks` makes it configurable. @internal */
  _reportListenerError(event: string, error: unknown): void {
    console.error(`toolware: a listener of "${event}" failed:`, error);
  }

  /** @internal */
  _emit(event: string, payload: unknown): void {
    if (this._listened && this._emitter.listenerCount(event) > 0) this._emitter.emit(event, payload);
  }

  // A misspelt event ("call:ned") would listen to nothing, and an audit log built on it stay silently empty.
  #checkListener(method: string, event: unknown, listener: unknown): void {
    const known = this._layer === "global" ? CALL_EVENTS : LAYER_EVENTS;
    if (typeof event !== "string" || !known.includes(event)) {
      const close = typeof event === "string" ? closestKey(event, known) : undefined;
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_ARGUMENT",
        `${method}(): ${this._layer === "global" ? "a ToolHooks" : `a ${this._layer} layer`} emits no event ${showValue(event)} (${close === undefined ? "" : `did you mean "${close}"? `}it emits ${known.join(", ")})`,
      );
    }
    if (typeof listener !== "function") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_ARGUMENT",
        `${method}(${JSON.stringify(event)}) needs a listener function, got ${showValue(listener)}`,
      );
    }
  }

  #guard(event: string, listener: (payload: unknown) => unknown): (payload: unknown) => void {
    let byEvent = this.#guarded.get(listener);
    if (byEvent === undefined) {
      byEvent = new Map();
      this.#guarded.set(listener, byEvent);
    }
    let guarded = byEvent.get(event);
    if (guarded === undefined) {
      guarded = (payload) => {
        try {
          const r = listener(payload);
          if (r instanceof Promise) r.catch((e: unknown) => this._reportListenerError(event, e));
        } catch (e) {
          this._reportListenerError(event, e);
        }
      };
      byEvent.set(event, guarded);
    }
    return guarded;
  }

  #add(kind: HookKind, fn: HookFunction, options: HookOptions | undefined): Unregister {
    return this.#commit([createRegistration(this._layer, this._regs.length, kind, fn, options)]);
  }

  #addPack(pack: Pack, options: HookOptions | undefined): Unregister {
    assertNotRegistered(pack, this._regs, this._layer);
    const regs = packRegistrations(this._layer, this._regs.length, pack, options);
    const handle = this.#commit(regs);
    const observe = pack.observe;
    if (observe === undefined || this._layer !== "global") return handle;
    const stops = observePack(this, regs, observe);
    const unregister: Unregister = () => {
      for (const stop of stops) stop();
      return handle();
    };
    this.#handles.set(unregister, regs);
    return unregister;
  }

  #commit(regs: Registration[]): Unregister {
    this._regs = [...this._regs, ...regs];
    this._version++;
    for (const r of regs) this._emit("hook:added", r.info);
    const handle: Unregister = () => {
      const mine = new Set(regs);
      return this._drop((r) => mine.has(r)) > 0;
    };
    this.#handles.set(handle, regs);
    return handle;
  }

  /** Removes the registrations `doomed` accepts; returns how many. @internal */
  _drop(doomed: (r: Registration) => boolean): number {
    const removed = this._regs.filter(doomed);
    if (removed.length === 0) return 0;
    this._regs = this._regs.filter((r) => !doomed(r));
    this._version++;
    for (const r of removed) this._emit("hook:removed", r.info);
    return removed.length;
  }
}
