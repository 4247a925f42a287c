/** How a leader's call ended, as its followers see it. */
export type FlightOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/** One call in flight that identical calls wait on. @internal */
export interface Flight {
  readonly key: string;
  readonly done: Promise<FlightOutcome>;
  settle(outcome: FlightOutcome): void;
  /** Followers waiting, grouped by their abort signal: one listener per signal, not per follower. */
  readonly waiters: Map<AbortSignal, { readonly wake: Set<() => void>; readonly onAbort: () => void }>;
}

const FAILED: FlightOutcome = Object.freeze({ ok: false });

/** Makes a flight whose promise settles once, with the first outcome given. @internal */
export function createFlight(key: string): Flight {
  let resolve!: (outcome: FlightOutcome) => void;
  const done = new Promise<FlightOutcome>((r) => {
    resolve = r;
  });
  const flight: Flight = { key, done, settle: (outcome) => resolve(outcome), waiters: new Map() };
  // Calls made without a signal share one that never aborts: listeners left on it would pile up.
  void done.then(() => {
    for (const [signal, group] of flight.waiters) signal.removeEventListener("abort", group.onAbort);
    flight.waiters.clear();
  });
  return flight;
}

/** The outcome of a leader that failed, was blocked, or threw. @internal */
export const failedFlight = FAILED;

const ABORTED = Symbol("aborted");

/** Waits for a flight, or for the follower's own signal to abort, whichever comes first. @internal */
export function awaitFlight(flight: Flight, signal: AbortSignal): Promise<FlightOutcome | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  let group = flight.waiters.get(signal);
  if (group === undefined) {
    const wake = new Set<() => void>();
    const onAbort = () => {
      for (const w of wake) w();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    group = { wake, onAbort };
    flight.waiters.set(signal, group);
  }
  const { wake } = group;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    wake.add(() => resolve(ABORTED));
  });
  return Promise.race([flight.done, aborted]);
}

/** True when a follower stopped waiting because its call was cancelled. @internal */
export function isAborted(value: FlightOutcome | typeof ABORTED): value is typeof ABORTED {
  return value === ABORTED;
}
