import { ToolwareError } from "@toolware/core";
import type { Connection, Script } from "./shared.js";

/** One operation waiting for Redis. @internal */
export interface Waiter {
  /** `performance.now()` time after which the operation gives up. */
  readonly deadline: number;
  /** True once it got its answer, its error or its deadline. */
  readonly settled: boolean;
  /** Called once the deadline has passed and the operation has not settled. */
  expire(): void;
}

/**
 * The operations of one store that wait for Redis, oldest first, under a single timer. A
 * `setTimeout` per call (a timer object, a timer-list insertion and removal, ref counting) was a
 * measurable part of a rate-limit decision; here a call costs one array slot. Every operation of
 * a store has the same timeout, so deadlines are in the order the operations started and the
 * oldest unsettled one is always at the front: the timer is armed for its deadline only, and
 * re-armed for the next when it fires. Replies of one connection come back in order, so settled
 * operations leave from the front as they settle and the queue stays as short as the number of
 * calls in flight.
 * @internal
 */
export class Deadlines {
  readonly #queue: Waiter[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #firing = false;

  constructor(readonly timeoutMs: number) {}

  /** Watches a waiter whose deadline is `timeoutMs` from now (later than every waiter already watched). */
  add(waiter: Waiter): void {
    this.#queue.push(waiter);
    if (this.#timer === undefined && !this.#firing) this.#arm(this.timeoutMs);
  }

  /** Lets go of the settled waiters at the front; called by each waiter as it settles. */
  settled(): void {
    const queue = this.#queue;
    while (this.#head < queue.length && (queue[this.#head] as Waiter).settled) this.#head++;
    if (this.#head === queue.length) {
      queue.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= queue.length) {
      // A waiter stuck behind a slow one keeps the front; drop the settled ones before it now and then.
      queue.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /** Waiters still watched (settled ones behind an unsettled one included). For tests. */
  get size(): number {
    return this.#queue.length - this.#head;
  }

  #arm(ms: number): void {
    const timer = setTimeout(this.#fire, ms);
    // The deadline alone must not keep a process alive.
    timer.unref?.();
    this.#timer = timer;
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    const now = performance.now();
    const queue = this.#queue;
    // An expiring waiter's fallback listener may start new operations: they wait for the re-arm below.
    this.#firing = true;
    try {
      // `expire` settles the waiter, which may move the front itself: read it afresh every time.
      while (this.#head < queue.length) {
        const waiter = queue[this.#head] as Waiter;
        if (waiter.settled) this.#head++;
        else if (waiter.deadline <= now) waiter.expire();
        else break;
      }
    } finally {
      this.#firing = false;
    }
    this.settled();
    const next = queue[this.#head];
    // A timer may fire a little before `performance.now()` reaches the deadline: wait for the rest.
    if (next !== undefined) this.#arm(Math.max(1, Math.ceil(next.deadline - now)));
  };
}

/** One operation under the store's deadline, settled once: by its answer, its error or the deadline. */
class Call<T> implements Waiter {
  settled = false;
  readonly deadline: number;
  constructor(
    readonly c: Connection,
    readonly operation: string,
    readonly resolve: (value: T) => void,
    readonly reject: (error: unknown) => void,
    readonly fallback: (() => T) | undefined,
  ) {
    this.deadline = performance.now() + c.timeoutMs;
  }

  ok(value: T): void {
    if (this.settled) return;
    this.settled = true;
    this.c.deadlines.settled();
    this.resolve(value);
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    const c = this.c;
    c.deadlines.settled();
    const allowed = this.fallback !== undefined && c.policy === "fail-open";
    const operation = this.operation;
    try {
      c.onFallback?.({ store: c.store, operation, policy: c.policy, action: allowed ? "allowed" : "refused", error });
    } catch {
      // A broken listener must not turn a fallback into a hanging or failing call.
    }
    if (allowed) {
      let value: T;
      try {
        value = (this.fallback as () => T)();
      } catch (thrown) {
        this.reject(thrown);
        return;
      }
      this.resolve(value);
      return;
    }
    const why = error instanceof Error ? error.message : String(error);
    this.reject(
      new ToolwareError(
        "TOOLWARE_REDIS_UNAVAILABLE",
        `redis ${c.store} store unavailable (${operation}: ${why}), failing closed`,
        {
          cause: error,
        },
      ),
    );
  }

  expire(): void {
    this.fail(new ToolwareError("TOOLWARE_REDIS_UNAVAILABLE", `redis did not answer within ${this.c.timeoutMs} ms`));
  }
}

/**
 * Runs one Redis operation under the store's deadline. On failure the policy decides: with
 * `fallback` and fail-open the call gets `fallback()`; otherwise it gets a coded error. The
 * operation's own promise keeps a handler, so a late rejection is never unhandled.
 * @internal
 */
export function guarded<T>(c: Connection, operation: string, work: () => Promise<T>, fallback?: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const call = new Call<T>(c, operation, resolve, reject, fallback);
    c.deadlines.add(call);
    let pending: Promise<T>;
    try {
      pending = work();
    } catch (error) {
      call.fail(error);
      return;
    }
    pending.then(
      (value) => call.ok(value),
      (error: unknown) => call.fail(error),
    );
  });
}

/**
 * Runs `script` by its SHA under the store's deadline and hands its reply to `read`: the hot path
 * of every decision, so it has no promise in between (`guarded` around `Script.run` had three).
 * A server that does not know the script gets it once with `EVAL`, within the same deadline.
 * @internal
 */
export function guardedScript<T>(
  c: Connection,
  operation: string,
  script: Script,
  keys: readonly string[],
  args: readonly (string | number)[],
  read: (reply: unknown) => T,
  fallback?: () => T,
): Promise<T> {
  return guardedCall(c, operation, script, keys.length, [...keys, ...args], read, fallback);
}

/**
 * {@link guardedScript} with the keys and the arguments in one array, the first `keyCount` being
 * keys: a decision builds one array, not two that are then spread into a third.
 * @internal
 */
export function guardedCall<T>(
  c: Connection,
  operation: string,
  script: Script,
  keyCount: number,
  keysAndArgs: readonly (string | number)[],
  read: (reply: unknown) => T,
  fallback?: () => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const call = new Call<T>(c, operation, resolve, reject, fallback);
    c.deadlines.add(call);
    const answered = (reply: unknown) => {
      let value: T;
      try {
        value = read(reply);
      } catch (error) {
        call.fail(error);
        return;
      }
      call.ok(value);
    };
    const failed = (error: unknown) => call.fail(error);
    try {
      c.client.evalsha(script.sha, keyCount, ...keysAndArgs).then(answered, (error: unknown) => {
        // After a restart or a failover the server has forgotten the script: one EVAL loads it again.
        if (call.settled || !(error instanceof Error && error.message.startsWith("NOSCRIPT"))) return failed(error);
        c.client.eval(script.source, keyCount, ...keysAndArgs).then(answered, failed);
      });
    } catch (error) {
      failed(error);
    }
  });
}
