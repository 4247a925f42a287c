import { HookTimeoutError } from "./errors.js";
import { now, type RuntimeHook } from "./runtime.js";
import { settle, type Then } from "./thenable.js";

// A hook's `timeoutMs`, three ways: a sync hook is judged once it returns, an async hook is raced
// against a timer, and a middleware's budget pauses while the rest of the chain runs inside next().

/** A sync hook cannot be interrupted; one that overran is treated as timed out once it returns. @internal */
export function overran(h: RuntimeHook, t0: number): boolean {
  return h.timeoutMs !== undefined && now() - t0 > h.timeoutMs;
}

// Bounds an async hook by its timeoutMs; the hook itself goes on in the background.
function bounded(thenable: object, then: Then, h: RuntimeHook): Promise<unknown> {
  const ms = h.timeoutMs as number;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new HookTimeoutError(h.name, ms)), ms);
    settle(
      thenable,
      then,
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Waits for a hook's promise (bounded by its timeoutMs), then goes on with `ok` or `err`. @internal */
export function awaitHook<T>(
  thenable: object,
  then: Then,
  h: RuntimeHook,
  ok: (value: unknown) => T | PromiseLike<T>,
  err: (error: unknown) => T | PromiseLike<T>,
): Promise<T> {
  return h.timeoutMs === undefined ? settle(thenable, then, ok, err) : bounded(thenable, then, h).then(ok, err);
}

/** The time budget of a middleware's own work: paused while the rest of the chain runs inside `next()`. @internal */
export class Budget {
  #left: number;
  #armedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reject: ((e: unknown) => void) | undefined;
  readonly expired: Promise<never>;
  readonly #hook: RuntimeHook;

  constructor(hook: RuntimeHook, ms: number) {
    this.#hook = hook;
    this.#left = ms;
    this.expired = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    this.expired.catch(() => {});
    this.resume();
  }

  pause(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#left -= now() - this.#armedAt;
  }

  resume(): void {
    this.#armedAt = now();
    this.#timer = setTimeout(
      () => this.#reject?.(new HookTimeoutError(this.#hook.name, this.#hook.timeoutMs as number)),
      Math.max(0, this.#left),
    );
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
