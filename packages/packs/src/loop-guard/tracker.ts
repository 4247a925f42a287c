/** One call a loop guard saw (and let through). */
export interface LoopHistoryEntry {
  readonly toolName: string;
  readonly agentRole: string | undefined;
  readonly callId: string;
  /** On the guard's clock, in milliseconds. */
  readonly at: number;
}

/** What one check found: the streak and window counts including the call being checked. */
export interface LoopCounts {
  readonly streak: number;
  readonly inWindow: number;
}

/**
 * The calls of one scope (an agent, a crew, or everything): the current streak
 * of identical calls, recent times per call key, and a bounded history.
 * @internal
 */
export class ScopeTracker {
  #lastKey: string | undefined;
  #streak = 0;
  readonly #times = new Map<string, number[]>();
  readonly #history: LoopHistoryEntry[] = [];
  #head = 0;
  #sinceSweep = 0;
  readonly historySize: number;
  /** 0 when window counting is off. */
  readonly maxInWindow: number;
  readonly windowMs: number;

  constructor(historySize: number, maxInWindow: number, windowMs: number) {
    this.historySize = historySize;
    this.maxInWindow = maxInWindow;
    this.windowMs = windowMs;
  }

  /** Counts the call as if it were recorded, without recording it. */
  check(key: string, now: number): LoopCounts {
    const streak = key === this.#lastKey ? this.#streak + 1 : 1;
    if (this.maxInWindow === 0) return { streak, inWindow: 0 };
    const times = this.#times.get(key);
    let inWindow = 1;
    if (times !== undefined) for (const t of times) if (t + this.windowMs > now) inWindow++;
    return { streak, inWindow };
  }

  record(key: string, now: number, entry: LoopHistoryEntry): void {
    this.#streak = key === this.#lastKey ? this.#streak + 1 : 1;
    this.#lastKey = key;
    if (this.maxInWindow > 0) {
      let times = this.#times.get(key);
      if (times === undefined) {
        times = [];
        this.#times.set(key, times);
      }
      times.push(now);
      // Only the newest maxInWindow times can decide a check; older ones are dead weight.
      if (times.length > this.maxInWindow) times.shift();
      if (++this.#sinceSweep >= Math.max(256, this.#times.size)) this.#sweep(now);
    }
    if (this.#history.length < this.historySize) this.#history.push(entry);
    else {
      this.#history[this.#head] = entry;
      this.#head = (this.#head + 1) % this.historySize;
    }
  }

  /**
   * A call the guard blocked: the agent did make it, so it extends the streak (and a different
   * one breaks it), but it takes no place in the window or the history, so an agent that keeps
   * retrying does not extend its own penalty.
   */
  countBlocked(key: string): void {
    this.#streak = key === this.#lastKey ? this.#streak + 1 : 1;
    this.#lastKey = key;
  }

  /** The history, oldest first (a copy). */
  history(): LoopHistoryEntry[] {
    return [...this.#history.slice(this.#head), ...this.#history.slice(0, this.#head)];
  }

  // Keys made from inputs (sameInput) are unbounded: drop those whose times all left the window.
  #sweep(now: number): void {
    this.#sinceSweep = 0;
    for (const [key, times] of this.#times) {
      if (times.every((t) => t + this.windowMs <= now)) this.#times.delete(key);
    }
  }
}
