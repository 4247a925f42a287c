/** Where a circuit stands: `closed` lets calls through, `open` answers fast, `half-open` lets trials through. */
export type CircuitState = "closed" | "open" | "half-open";

/** What `state(key)` reports. */
export interface CircuitSnapshot {
  readonly state: CircuitState;
  /** Consecutive failures counted while closed (the threshold's count when it opened). */
  readonly failures: number;
  /** Trial calls in flight (half-open only). */
  readonly trials: number;
  /** Milliseconds until an open circuit lets a trial through. */
  readonly retryInMs?: number;
}

/** The breaker's settings, handed to the store with every decision. */
export interface CircuitPolicy {
  readonly failureThreshold: number;
  readonly cooldownMs: number;
  readonly halfOpenMax: number;
}

/** A change of state a store made; the breaker reports it through `onStateChange`. */
export interface CircuitTransition {
  readonly from: CircuitState;
  readonly to: CircuitState;
}

/**
 * The store's answer to "may this call run?": yes (as a trial of the half-open period `trial`
 * names, or as an ordinary call), or no, with the state that refused it.
 */
export type CircuitAdmission =
  | { readonly allowed: true; readonly trial?: string; readonly change?: CircuitTransition }
  | {
      readonly allowed: false;
      readonly state: "open" | "half-open";
      readonly retryInMs: number;
      readonly change?: CircuitTransition;
    };

/** How an admitted call ended: `neutral` when the tool did not run. */
export type CircuitOutcome = "success" | "failure" | "neutral";

/**
 * Where circuits live. Each method decides in one atomic step (the in-memory store
 * synchronously, a Redis store in one Lua script), so concurrent calls, in one process or
 * many, cannot both take the last trial slot. Every method may answer with a plain value (no
 * promise on the hot path) or a promise. A store that cannot decide throws or rejects: the
 * breaker then blocks the call (it fails closed), so a store that should let calls through
 * when it is down must answer `{ allowed: true }` itself.
 *
 * @example
 * ```ts
 * const breaker = circuitBreaker({ failureThreshold: 3, store: memoryCircuitStore() });
 * ```
 */
export interface CircuitStore {
  /** Decides whether a call runs; moves an open circuit whose cool-down is over to half-open. */
  admit(key: string, now: number, policy: CircuitPolicy): CircuitAdmission | Promise<CircuitAdmission>;
  /** Counts the outcome of an admitted call (`trial` as `admit` gave it). */
  record(
    key: string,
    outcome: CircuitOutcome,
    trial: string | undefined,
    now: number,
    policy: CircuitPolicy,
  ): CircuitTransition | undefined | Promise<CircuitTransition | undefined>;
  snapshot(key: string, now: number, policy: CircuitPolicy): CircuitSnapshot | Promise<CircuitSnapshot>;
  /** Closes one circuit, or all; returns the circuits that were not closed, with their state. */
  reset(
    key?: string,
  ): ReadonlyArray<readonly [string, CircuitState]> | Promise<ReadonlyArray<readonly [string, CircuitState]>>;
}

/** The default store: synchronous, per process. */
export interface MemoryCircuitStore extends CircuitStore {
  admit(key: string, now: number, policy: CircuitPolicy): CircuitAdmission;
  record(
    key: string,
    outcome: CircuitOutcome,
    trial: string | undefined,
    now: number,
    policy: CircuitPolicy,
  ): CircuitTransition | undefined;
  snapshot(key: string, now: number, policy: CircuitPolicy): CircuitSnapshot;
  reset(key?: string): ReadonlyArray<readonly [string, CircuitState]>;
}

interface Circuit {
  state: CircuitState;
  failures: number;
  openedAt: number;
  trials: number;
  /** Names the current half-open period, so late trial outcomes of an earlier one are ignored. */
  epoch: string;
}

const ALLOWED: CircuitAdmission = Object.freeze({ allowed: true });

/**
 * The in-memory circuit store. Only circuits that have failures or are not closed are kept: a
 * healthy key costs no memory.
 *
 * @example
 * ```ts
 * const circuits = memoryCircuitStore();
 * hooks.use(circuitBreaker({ store: circuits }));
 * ```
 */
export function memoryCircuitStore(): MemoryCircuitStore {
  const circuits = new Map<string, Circuit>();
  let periods = 0;

  const move = (c: Circuit, to: CircuitState, now: number): CircuitTransition => {
    const from = c.state;
    c.state = to;
    if (to === "open") c.openedAt = now;
    if (to !== "closed") c.trials = 0;
    if (to === "half-open") c.epoch = String(++periods);
    return { from, to };
  };

  const close = (k: string, c: Circuit): CircuitTransition | undefined => {
    circuits.delete(k);
    return c.state === "closed" ? undefined : { from: c.state, to: "closed" };
  };

  return {
    admit(k, now, { cooldownMs, halfOpenMax }): CircuitAdmission {
      const c = circuits.get(k);
      if (c === undefined || c.state === "closed") return ALLOWED;
      let change: CircuitTransition | undefined;
      if (c.state === "open") {
        const retryInMs = c.openedAt + cooldownMs - now;
        if (retryInMs > 0) return { allowed: false, state: "open", retryInMs };
        change = move(c, "half-open", now);
      }
      if (c.trials >= halfOpenMax) return { allowed: false, state: "half-open", retryInMs: 0, change };
      c.trials++;
      return { allowed: true, trial: c.epoch, change };
    },
    record(k, outcome, trial, now, { failureThreshold }): CircuitTransition | undefined {
      const c = circuits.get(k);
      if (trial !== undefined) {
        // The trial belongs to a half-open period that is over (another trial decided, or reset()).
        if (c === undefined || c.state !== "half-open" || c.epoch !== trial) return undefined;
        if (outcome === "neutral") {
          c.trials--;
          return undefined;
        }
        return outcome === "success" ? close(k, c) : move(c, "open", now);
      }
      // Admitted while closed: once the circuit opened, late outcomes add nothing.
      if (c !== undefined && c.state !== "closed") return undefined;
      if (outcome === "success") return c === undefined ? undefined : close(k, c);
      if (outcome === "neutral") return undefined;
      const current = c ?? { state: "closed" as CircuitState, failures: 0, openedAt: 0, trials: 0, epoch: "" };
      if (c === undefined) circuits.set(k, current);
      current.failures++;
      return current.failures >= failureThreshold ? move(current, "open", now) : undefined;
    },
    snapshot(k, now, { cooldownMs }): CircuitSnapshot {
      const c = circuits.get(k);
      if (c === undefined) return { state: "closed", failures: 0, trials: 0 };
      if (c.state !== "open") return { state: c.state, failures: c.failures, trials: c.trials };
      const retryInMs = c.openedAt + cooldownMs - now;
      return retryInMs > 0
        ? { state: "open", failures: c.failures, trials: 0, retryInMs }
        : { state: "half-open", failures: c.failures, trials: 0 };
    },
    reset(k?: string): Array<readonly [string, CircuitState]> {
      const doomed = k === undefined ? [...circuits] : [[k, circuits.get(k)] as const];
      const closed: Array<readonly [string, CircuitState]> = [];
      for (const [name, c] of doomed) {
        if (c === undefined) continue;
        circuits.delete(name);
        if (c.state !== "closed") closed.push([name, c.state]);
      }
      return closed;
    },
  };
}
