/**
 * Whether a value is a promise or any other thenable. Stores and callbacks may answer synchronously or not;
 * the packs test the answer with this and take the synchronous path when they can, so a memory store adds no
 * microtask to a call.
 *
 * @example
 * ```ts
 * isThenable(Promise.resolve(1)); // true
 * isThenable(1); // false
 * ```
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
