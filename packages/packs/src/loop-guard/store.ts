import { type LoopCounts, type LoopHistoryEntry, ScopeTracker } from "./tracker.js";

/** Whose calls one check counts: `id` names the scope across processes, `owner` is its object in this one. */
export interface LoopScopeRef {
  /** `agent:<role>`, `crew:<name>` or `global`: what a shared store keys on. */
  readonly id: string;
  /** The agent or crew object (or one shared object for "nobody" and the global scope). */
  readonly owner: object;
}

/** The guard's thresholds, handed to the store with every call. */
export interface LoopRule {
  /** 0 when off. */
  readonly maxRepeats: number;
  /** 0 when off. */
  readonly maxInWindow: number;
  readonly windowMs: number;
  readonly historySize: number;
  /** The guard blocks: a call that reaches a threshold extends the streak but takes no place in the window. */
  readonly blocks: boolean;
}

/**
 * Where a loop guard keeps its streaks, windows and histories. `observe` counts one call
 * (including it) and records it as the guard will treat it, in one atomic step: a call that
 * reaches no threshold, or any call of a warning guard, is recorded; a call a blocking guard
 * refuses only extends the streak. The in-memory store does it synchronously; a Redis store in
 * one script. Every method may answer with a plain value or a promise.
 *
 * @example
 * ```ts
 * const store = memoryLoopGuardStore();
 * hooks.use(loopGuard({ maxRepeats: 3, action: "block", store }));
 * ```
 */
export interface LoopGuardStore {
  observe(
    scope: LoopScopeRef,
    key: string,
    now: number,
    rule: LoopRule,
    entry: LoopHistoryEntry,
  ): LoopCounts | Promise<LoopCounts>;
  /** The calls recorded in a scope, oldest first. */
  history(scope: LoopScopeRef): LoopHistoryEntry[] | Promise<LoopHistoryEntry[]>;
  /** Forgets one scope, or every scope. */
  reset(scope?: LoopScopeRef): void | Promise<void>;
}

/** The default store: per process, scopes keyed by their objects (two agents with one role are two scopes). */
export interface MemoryLoopGuardStore extends LoopGuardStore {
  observe(scope: LoopScopeRef, key: string, now: number, rule: LoopRule, entry: LoopHistoryEntry): LoopCounts;
  history(scope: LoopScopeRef): LoopHistoryEntry[];
  reset(scope?: LoopScopeRef): void;
}

/** Whether a call with these counts reaches a threshold. @internal */
export function triggered(rule: LoopRule, counts: LoopCounts): "repeats" | "window" | undefined {
  if (rule.maxRepeats > 0 && counts.streak >= rule.maxRepeats) return "repeats";
  if (rule.maxInWindow > 0 && counts.inWindow >= rule.maxInWindow) return "window";
  return undefined;
}

/**
 * The in-memory loop-guard store.
 *
 * @example
 * ```ts
 * const shared = memoryLoopGuardStore(); // two guards counting the same calls
 * ```
 */
export function memoryLoopGuardStore(): MemoryLoopGuardStore {
  let trackers = new WeakMap<object, ScopeTracker>();
  return {
    observe(scope, key, now, rule, entry) {
      let tracker = trackers.get(scope.owner);
      if (tracker === undefined) {
        tracker = new ScopeTracker(rule.historySize, rule.maxInWindow, rule.windowMs);
        trackers.set(scope.owner, tracker);
      }
      const counts = tracker.check(key, now);
      if (triggered(rule, counts) !== undefined && rule.blocks) tracker.countBlocked(key);
      else tracker.record(key, now, entry);
      return counts;
    },
    history: (scope) => trackers.get(scope.owner)?.history() ?? [],
    reset(scope) {
      if (scope === undefined) trackers = new WeakMap();
      else trackers.delete(scope.owner);
    },
  };
}
