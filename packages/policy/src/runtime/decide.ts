import { messageOf } from "@toolware/core";
import type { CedarEngine } from "../cedar/index.js";
import type { PolicyDecision } from "../document.js";
import { ANNOTATION_TAGS, type CallFacts, type CompiledMatch, type ToolFacts } from "./match.js";

/** One rule, compiled. */
export interface RuntimeRule {
  readonly index: number;
  readonly name: string;
  readonly decide: PolicyDecision | undefined;
  readonly reason: string | undefined;
  /** The rule's own mode, else the file's, is `shadow`. */
  readonly shadow: boolean;
  readonly match: CompiledMatch;
}

/** A decision a shadow rule (or a shadow file) made but did not enforce. */
export interface ShadowHit {
  /** The rule's name; `default` for the file's default; `cedar:<ids>` for Cedar. */
  readonly rule: string;
  readonly effect: "deny" | "approve";
  readonly reason: string | undefined;
}

/** What the policy decided for one call. */
export interface PolicyCallDecision {
  /** Which compiled policy decided (a watched policy counts its reloads: 1, 2, …). */
  readonly version: number;
  /** What is enforced: in shadow mode, `allow` where a rule would have denied or asked. */
  readonly effect: "allow" | "deny" | "approve";
  /** The deciding rule's name; for Cedar `cedar:<policy ids>`; `default` when the file's default decided. */
  readonly rule: string;
  readonly source: "rule" | "cedar" | "default";
  /** The reason the agent reads when denied. */
  readonly reason: string | undefined;
  /** Decisions made in shadow mode that were not enforced (what would have been blocked or asked). */
  readonly shadowed: readonly ShadowHit[];
  /** Every rule whose match held, in file order. */
  readonly matched: readonly string[];
}

/** The decision with what the hooks need: the deciding rule's index, and which rules matched. @internal */
export interface InternalDecision extends PolicyCallDecision {
  /** -1: the default; -2: Cedar. */
  readonly index: number;
  readonly matchedIndex: readonly number[];
  /** Shadow rules that would have denied or asked. */
  readonly shadowIndex: readonly number[];
}

// Shared by every decision with no shadow hit; replaced (never pushed to) on the first one.
const NONE: never[] = Object.freeze([]) as never[];

/** Cedar's part in a policy. @internal */
export type CedarPart = Pick<CedarEngine, "covers" | "decide">;

/** The rules that can hold for one tool, and the decisions already made from them. */
interface Candidates {
  readonly rules: readonly number[];
  /** Decisions by which of `rules` held (bit k: rules[k]), for calls no condition failed and Cedar cannot decide. */
  readonly memo: Map<number, InternalDecision>;
  /** No candidate has a condition: who calls (agent, crew, caller) alone decides between the memo's entries. */
  readonly plain: boolean;
}

// A call's decision is a function of which candidate rules held: with up to 30 candidates the set fits in the bits
// of a small integer, and the decision made from it is kept (frozen) and handed to every call that repeats it.
const MAX_MASKED = 30;
const MAX_MEMO = 1024;

/** The decider that made a decision: its hooks find the policy version (gates, packs) through it. @internal */
export const DECIDER: unique symbol = Symbol("policy decider");

/** Which rules held for a call: rule indexes in file order, and the conditions that failed (fail closed). */
interface Hits {
  readonly rules: readonly number[];
  readonly errors: ReadonlyMap<number, string> | undefined;
}

/** A compiled policy: every rule, the default, and Cedar; decides calls. @internal */
export class PolicyDecider {
  readonly #candidates = new Map<string, Candidates>();
  readonly #byTool = new WeakMap<object, Candidates>();
  // A strong reference to one tool object at most, which the pack holds anyway through its calls.
  #lastTool: object | undefined;
  #lastCandidates: Candidates | undefined;
  // The last decision made without a condition, and who it was for: calls come in runs of the same caller too.
  #lastSet: Candidates | undefined;
  #lastAgent: string | undefined;
  #lastCrew: string | undefined;
  #lastCaller: string | undefined;
  #lastDecision: InternalDecision | undefined;
  /** What the decisions' hooks need of the compiled policy this decider belongs to (set once compiled). */
  owner: unknown;

  constructor(
    readonly version: number,
    readonly rules: readonly RuntimeRule[],
    readonly fallback: {
      readonly effect: "allow" | "deny";
      readonly reason: string | undefined;
      readonly shadow: boolean;
    },
    readonly cedar: CedarPart | undefined,
  ) {}

  /** The rules that can hold for this tool, by the tool's facts alone (cached). */
  candidates(tool: ToolFacts): readonly number[] {
    return this.#candidatesFor(tool).rules;
  }

  #candidatesFor(tool: ToolFacts): Candidates {
    const key = `${tool.name}\u0000${tool.destructive}\u0000${tool.tags.join("\u0000")}`;
    let found = this.#candidates.get(key);
    if (found === undefined) {
      const rules = this.rules.filter((r) => r.match.forTool(tool));
      const plain = rules.length <= MAX_MASKED && rules.every((r) => r.match.condition === undefined);
      found = { rules: rules.map((r) => r.index), memo: new Map(), plain };
      if (this.#candidates.size >= 4096) this.#candidates.clear();
      this.#candidates.set(key, found);
    }
    return found;
  }

  /** Decides one call; `toolRef` (the call's tool object) caches which rules can hold for it. */
  decide(facts: CallFacts, toolRef?: object): InternalDecision {
    let set: Candidates | undefined;
    if (toolRef !== undefined) {
      // Calls come in runs of the same tool: the last one is checked before the WeakMap.
      set = toolRef === this.#lastTool ? this.#lastCandidates : this.#byTool.get(toolRef);
    }
    if (set === undefined) {
      set = this.#candidatesFor({ name: facts.toolName, tags: facts.tags, destructive: facts.destructive });
      if (toolRef !== undefined) this.#byTool.set(toolRef, set);
    }
    if (toolRef !== undefined) {
      this.#lastTool = toolRef;
      this.#lastCandidates = set;
    }
    const cedarCovers = this.cedar?.covers(facts.toolName) === true;
    if (
      set === this.#lastSet &&
      facts.agent === this.#lastAgent &&
      facts.crew === this.#lastCrew &&
      facts.caller === this.#lastCaller &&
      !cedarCovers
    ) {
      return this.#lastDecision as InternalDecision;
    }
    const ids = set.rules;
    const n = ids.length;
    const wide = n > MAX_MASKED;
    const list: number[] | undefined = wide ? [] : undefined;
    let mask = 0;
    let errors: Map<number, string> | undefined;
    let cel: ReturnType<typeof celFacts> | undefined;
    for (let k = 0; k < n; k++) {
      const i = ids[k] as number;
      const m = (this.rules[i] as RuntimeRule).match;
      if (m.forCall !== undefined && !m.forCall(facts)) continue;
      if (m.condition !== undefined) {
        try {
          cel ??= celFacts(facts);
          if (!m.condition.evaluate(cel)) continue;
        } catch (error) {
          errors ??= new Map();
          errors.set(i, messageOf(error));
        }
      }
      if (list !== undefined) list.push(i);
      else mask |= 1 << k;
    }
    if (list !== undefined || errors !== undefined || cedarCovers) {
      return this.#build({ rules: list ?? fromMask(ids, mask), errors }, cedarCovers ? facts : undefined);
    }
    let d = set.memo.get(mask);
    if (d === undefined) {
      d = this.#build({ rules: fromMask(ids, mask), errors: undefined }, undefined);
      if (set.memo.size < MAX_MEMO) set.memo.set(mask, freeze(d));
    }
    if (set.plain && Object.isFrozen(d)) {
      this.#lastSet = set;
      this.#lastAgent = facts.agent;
      this.#lastCrew = facts.crew;
      this.#lastCaller = facts.caller;
      this.#lastDecision = d;
    }
    return d;
  }

  // Deny beats approve beats allow among enforced rules, first match within each; Cedar's forbid wins too.
  #build(hits: Hits, cedarFacts: CallFacts | undefined): InternalDecision {
    const matched: string[] = [];
    const matchedIndex: number[] = [];
    let shadowed: ShadowHit[] = NONE;
    let shadowIndex: number[] = NONE;
    let shadowAllow = false;
    let deny = -1;
    let denyReason: string | undefined;
    let approve = -1;
    let approveReason: string | undefined;
    let allow = -1;
    let allowReason: string | undefined;
    for (const i of hits.rules) {
      const rule = this.rules[i] as RuntimeRule;
      let effect = rule.decide;
      let reason = rule.reason;
      const failed = hits.errors?.get(i);
      if (failed !== undefined) {
        // Fails closed: a condition that cannot be decided denies, whatever the rule would have done.
        effect = "deny";
        reason = `policy rule "${rule.name}" could not evaluate its condition, so the call is denied: ${failed}`;
      }
      matched.push(rule.name);
      matchedIndex.push(i);
      if (effect === undefined) continue;
      if (rule.shadow) {
        if (effect !== "allow") {
          if (shadowed === (NONE as ShadowHit[])) {
            shadowed = [];
            shadowIndex = [];
          }
          shadowed.push({ rule: rule.name, effect, reason });
          shadowIndex.push(i);
        } else shadowAllow = true;
        continue;
      }
      if (effect === "deny") {
        if (deny === -1) {
          deny = i;
          denyReason = reason;
        }
      } else if (effect === "approve") {
        if (approve === -1) {
          approve = i;
          approveReason = reason;
        }
      } else if (allow === -1) {
        allow = i;
        allowReason = reason;
      }
    }
    let cedar: { name: string; effect: "allow" | "deny" | "approve"; reason: string | undefined } | undefined;
    if (deny === -1 && cedarFacts !== undefined && this.cedar !== undefined) {
      const c = this.cedar.decide(cedarCall(cedarFacts));
      if (c.effect !== "none") {
        const name = `cedar:${c.policies.join(",")}`;
        if (this.fallback.shadow && c.effect !== "allow") {
          if (shadowed === (NONE as ShadowHit[])) shadowed = [];
          shadowed.push({ rule: name, effect: c.effect, reason: c.reason });
        } else if (c.effect === "deny" || (c.effect === "approve" ? approve === -1 : approve === -1 && allow === -1)) {
          // Cedar's deny wins; its approve or allow counts only where no rule of that rank (or above) decided.
          cedar = { name, effect: c.effect, reason: c.reason };
        }
      }
    }
    const f = this.fallback;
    let effect: "allow" | "deny" | "approve" = f.effect;
    let rule = "default";
    let source: PolicyCallDecision["source"] = "default";
    let reason = f.reason;
    let index = -1;
    const ruleEffect = deny !== -1 ? "deny" : approve !== -1 ? "approve" : allow !== -1 ? "allow" : undefined;
    if (cedar !== undefined) {
      ({ effect, name: rule, reason } = cedar);
      source = "cedar";
      index = -2;
    } else if (ruleEffect !== undefined) {
      effect = ruleEffect;
      index = ruleEffect === "deny" ? deny : ruleEffect === "approve" ? approve : allow;
      reason = ruleEffect === "deny" ? denyReason : ruleEffect === "approve" ? approveReason : allowReason;
      rule = (this.rules[index] as RuntimeRule).name;
      source = "rule";
    } else if (f.effect === "deny" && f.shadow) {
      // The default would only have decided when no rule did, in shadow or not.
      if (shadowed.length === 0 && !shadowAllow) shadowed = [{ rule: "default", effect: "deny", reason: f.reason }];
      effect = "allow";
      reason = undefined;
    }
    const d = {
      version: this.version,
      effect,
      rule,
      source,
      reason,
      shadowed,
      matched,
      index,
      matchedIndex,
      shadowIndex,
    };
    // Not enumerable: the decision reads as data (ctx.state.policy, events), its owner stays out of the way.
    Object.defineProperty(d, DECIDER, { value: this });
    return d;
  }
}

function fromMask(ids: readonly number[], mask: number): readonly number[] {
  if (mask === 0) return NONE;
  const out: number[] = [];
  for (let k = 0; k < ids.length; k++) if ((mask & (1 << k)) !== 0) out.push(ids[k] as number);
  return out;
}

/** A decision handed to many calls: nothing of it can be changed by one of them. */
function freeze(d: InternalDecision): InternalDecision {
  Object.freeze(d.matched);
  Object.freeze(d.matchedIndex);
  Object.freeze(d.shadowIndex);
  for (const hit of d.shadowed) Object.freeze(hit);
  Object.freeze(d.shadowed);
  return Object.freeze(d);
}

/** The decider that made `decision`. @internal */
export function deciderOf(decision: InternalDecision): PolicyDecider | undefined {
  return (decision as { [DECIDER]?: PolicyDecider })[DECIDER];
}

/** What a condition sees of a call. @internal */
export function celFacts(facts: CallFacts) {
  return {
    tool: { name: facts.toolName, tags: facts.tags, destructive: facts.destructive },
    agent: facts.agent ?? "",
    crew: facts.crew ?? "",
    caller: facts.caller ?? "",
    args: facts.args,
  };
}

/** A call as the Cedar engine reads it. @internal */
export function cedarCall(facts: CallFacts) {
  return {
    tool: facts.toolName,
    args: facts.args,
    agent: facts.agent,
    crew: facts.crew,
    caller: facts.caller,
    tags: facts.tags,
    annotations: {
      destructiveHint: facts.destructive,
      readOnlyHint: facts.tags.includes(ANNOTATION_TAGS.readOnlyHint),
      idempotentHint: facts.tags.includes(ANNOTATION_TAGS.idempotentHint),
      openWorldHint: facts.tags.includes(ANNOTATION_TAGS.openWorldHint),
    },
  };
}
