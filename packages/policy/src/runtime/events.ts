import type { PolicyCallDecision } from "./decide.js";

/** Counts of one rule (or of the file's default), since the pack was made. */
export interface RuleCounters {
  /** Calls whose match held. */
  matched: number;
  /** Calls this rule denied (enforced). */
  denied: number;
  /** Calls this rule sent to a human. */
  asked: number;
  /** Of those, how many a human approved. */
  approved: number;
  /** Calls this rule would have denied, in shadow mode. */
  shadowDenied: number;
  /** Calls this rule would have sent to a human, in shadow mode. */
  shadowAsked: number;
}

/** What `pack.counters()` returns: per rule name, and for the file's default. */
export interface PolicyCounters {
  readonly calls: number;
  readonly rules: Readonly<Record<string, Readonly<RuleCounters>>>;
  readonly default: Readonly<RuleCounters>;
}

/** What a policy reports to `onEvent` and `pack.on()`. */
export type PolicyEvent =
  | {
      readonly type: "decision";
      readonly toolName: string;
      readonly callId: string;
      readonly decision: PolicyCallDecision;
    }
  | {
      /** A decision made in shadow mode: what would have been blocked or asked, and was allowed. */
      readonly type: "shadow";
      readonly toolName: string;
      readonly callId: string;
      readonly rule: string;
      readonly effect: "deny" | "approve";
      readonly reason: string | undefined;
    }
  | {
      readonly type: "reload";
      readonly version: number;
      readonly added: readonly string[];
      readonly removed: readonly string[];
      readonly changed: readonly string[];
    }
  | {
      /** A reload failed: the last good policy stays in force. */
      readonly type: "reload-error";
      readonly version: number;
      readonly error: unknown;
    };

const zero = (): RuleCounters => ({ matched: 0, denied: 0, asked: 0, approved: 0, shadowDenied: 0, shadowAsked: 0 });

/** Per-rule counters, kept by rule name (so they survive a reload). @internal */
export class Counters {
  calls = 0;
  readonly #rules = new Map<string, RuleCounters>();
  readonly #default = zero();
  #indexed: readonly { readonly name: string }[] | undefined;
  #byIndex: (RuleCounters | undefined)[] = [];

  of(rule: string): RuleCounters {
    let c = this.#rules.get(rule);
    if (c === undefined) {
      c = zero();
      this.#rules.set(rule, c);
    }
    return c;
  }

  /** The counters of a deciding rule; the default's for `source: "default"`. */
  deciding(decision: PolicyCallDecision): RuleCounters {
    return decision.source === "default" ? this.#default : this.of(decision.rule);
  }

  /**
   * Counts one decision. `rules` (the deciding policy's rule names, by index) lets the counters of a rule be found
   * by its index instead of its name; they are the same objects either way, so a reload loses no count.
   */
  count(
    decision: PolicyCallDecision & { readonly index: number; readonly matchedIndex: readonly number[] },
    rules: readonly { readonly name: string }[],
  ): void {
    this.calls++;
    if (rules !== this.#indexed) {
      this.#indexed = rules;
      this.#byIndex = [];
    }
    const byIndex = this.#byIndex;
    // Index loops: the decisions' arrays are frozen (shared by every call that repeats one), which for-of walks
    // through the generic iterator.
    const matched = decision.matchedIndex;
    for (let k = 0; k < matched.length; k++) {
      const i = matched[k] as number;
      let c = byIndex[i];
      if (c === undefined) {
        c = this.of((rules[i] as { name: string }).name);
        byIndex[i] = c;
      }
      c.matched++;
    }
    if (decision.effect === "deny") this.deciding(decision).denied++;
    else if (decision.effect === "approve") this.deciding(decision).asked++;
    const shadowed = decision.shadowed;
    for (let k = 0; k < shadowed.length; k++) {
      const hit = shadowed[k] as (typeof shadowed)[number];
      const c = hit.rule === "default" && decision.source === "default" ? this.#default : this.of(hit.rule);
      if (hit.effect === "deny") c.shadowDenied++;
      else c.shadowAsked++;
    }
  }

  snapshot(): PolicyCounters {
    const rules: Record<string, Readonly<RuleCounters>> = {};
    for (const [name, c] of this.#rules) rules[name] = Object.freeze({ ...c });
    return Object.freeze({
      calls: this.calls,
      rules: Object.freeze(rules),
      default: Object.freeze({ ...this.#default }),
    });
  }
}

/** Listeners of one policy pack. @internal */
export class Emitter {
  readonly #listeners = new Set<(event: PolicyEvent) => void>();

  on(listener: (event: PolicyEvent) => void): () => boolean {
    const own = (event: PolicyEvent) => listener(event);
    this.#listeners.add(own);
    return () => this.#listeners.delete(own);
  }

  get active(): boolean {
    return this.#listeners.size > 0;
  }

  emit(event: PolicyEvent, report: (error: unknown) => void): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch (error) {
        report(error);
      }
    }
  }
}
