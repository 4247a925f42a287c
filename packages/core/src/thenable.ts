// What a tool, a hook or a middleware returns is looked at once, inside the step that ran it,
// so that a value whose inspection throws (a revoked proxy, a `then` getter that throws) is a
// failure of whoever returned it, and never escapes as a rejection of `invoke`.

/** A `then` method, as read from a thenable. @internal */
export type Then = (
  this: unknown,
  onFulfilled: (value: unknown) => unknown,
  onRejected: (error: unknown) => unknown,
) => unknown;

/** `Promise.prototype.then`, to tell native promises from other thenables. @internal */
export const nativeThen = Promise.prototype.then as unknown as Then;

/**
 * The `then` method of a thenable, else `undefined`. Reads `then` once, and throws what reading it
 * throws: call it where that counts as a failure of whoever returned `value`. @internal
 */
export function thenOf(value: unknown): Then | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined;
  const then = (value as { then?: unknown }).then;
  return typeof then === "function" ? (then as Then) : undefined;
}

/**
 * Runs `ok` with the value `thenable` settles to, or `err` with its rejection, each at most once.
 * Never throws: a thenable that throws or misbehaves rejects. A native promise costs no extra
 * step. @internal
 */
export function settle<T>(
  thenable: object,
  then: Then,
  ok: (value: unknown) => T | PromiseLike<T>,
  err: (error: unknown) => T | PromiseLike<T>,
): Promise<T> {
  if (then === nativeThen) {
    try {
      // Throws only before it subscribes (not a real promise, a constructor getter that throws).
      return nativeThen.call(thenable, ok, err) as Promise<T>;
    } catch {
      // Adopted below, where the same problem becomes a rejection.
    }
  }
  return new Promise((resolve) => resolve(thenable)).then(ok, err);
}
