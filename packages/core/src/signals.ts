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

/**
 * Sources and the controllers that follow them, in pairs, released together when the call
 * ends. @internal
 */
export type Links = (AbortSignal | AbortController)[];

/** Makes `target` abort when `source` does, recording the link in `links`. @internal */
export function follow(links: Links, source: AbortSignal, target: AbortController): void {
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

/** Undoes every link in `links`; a source nobody follows any more loses its listener. @internal */
export function release(links: Links): void {
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

/** A signal that aborts when either does, linked through `links`. @internal */
export function either(links: Links, a: AbortSignal, b: AbortSignal): AbortSignal {
  if (a === NEVER_ABORTED || a === b) return b;
  if (b === NEVER_ABORTED) return a;
  const controller = new AbortController();
  follow(links, a, controller);
  follow(links, b, controller);
  return controller.signal;
}
