// The signals a call hands to its hooks and its tool. Node warns once eleven listeners wait on
// one signal, and on Node 20 `AbortSignal.any` keeps a reference in its sources forever: a
// signal shared by thousands of calls must see neither. So a call's signal is either one that
// never aborts and keeps no listeners, or the call's own, which follows the caller's (and any
// linked one) through a single shared listener per source, dropped when the last call ends.

/** Shared by every call made without a signal: nobody holds its controller, so it never aborts. @internal */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

// An abort listener on it could never run; kept, they would pile up across concurrent calls.
const addListener = EventTarget.prototype.addEventListener;
Object.defineProperty(NEVER_ABORTED, "addEventListener", {
  value: function addEventListener(this: AbortSignal, ...args: Parameters<typeof addListener>): void {
    if (args[0] !== "abort") addListener.apply(this, args);
  },
});

// The controllers following each source signal; the source has one listener while any do.
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

function relay(this: AbortSignal): void {
  // A synthetic "abort" event on a signal that has not aborted is not an abort.
  if (!this.aborted) return;
  const set = followers.get(this);
  followers.delete(this);
  this.removeEventListener("abort", relay);
  if (set === undefined) return;
  for (const controller of set) controller.abort(this.reason);
}

// Sources and the controllers that follow them, in pairs.
type Links = (AbortSignal | AbortController)[];

function follow(links: Links, source: AbortSignal, target: AbortController): void {
  if (source === NEVER_ABORTED || target.signal.aborted) return;
  if (source.aborted) {
    target.abort(source.reason);
    return;
  }
  let set = followers.get(source);
  if (set === undefined) {
    set = new Set();
    followers.set(source, set);
    source.addEventListener("abort", relay);
  }
  set.add(target);
  links.push(source, target);
}

/** A call's own signal, and every link it made to other signals: all undone when the call ends. @internal */
export class CallSignals {
  #own: AbortController | undefined = undefined;
  readonly #links: Links = [];

  /** The call's own signal (made on first use). */
  own(): AbortSignal {
    if (this.#own === undefined) this.#own = new AbortController();
    return this.#own.signal;
  }

  /** Makes the call's own signal abort when `source` does. */
  follow(source: AbortSignal): void {
    this.own();
    follow(this.#links, source, this.#own as AbortController);
  }

  /** Makes `target` abort when `source` does, through the one shared listener on `source`. */
  followInto(source: AbortSignal, target: AbortController): void {
    follow(this.#links, source, target);
  }

  /** A signal that aborts when either does. */
  either(a: AbortSignal, b: AbortSignal): AbortSignal {
    if (a === NEVER_ABORTED || a === b) return b;
    if (b === NEVER_ABORTED) return a;
    const controller = new AbortController();
    follow(this.#links, a, controller);
    follow(this.#links, b, controller);
    return controller.signal;
  }

  /** Undoes every link; a source nobody follows any more loses its listener. */
  release(): void {
    const links = this.#links;
    for (let i = 0; i < links.length; i += 2) {
      const source = links[i] as AbortSignal;
      const set = followers.get(source);
      if (set === undefined) continue;
      set.delete(links[i + 1] as AbortController);
      if (set.size === 0) {
        followers.delete(source);
        source.removeEventListener("abort", relay);
      }
    }
    links.length = 0;
  }
}

/** Gives a call its own signal, following the caller's; returns it. @internal */
export function followCaller(ctx: { _signals: CallSignals | undefined }, signal: AbortSignal): AbortSignal {
  const signals = new CallSignals();
  ctx._signals = signals;
  signals.follow(signal);
  return signals.own();
}
