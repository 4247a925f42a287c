import { closestKey, messageOf, ToolwareTypeError } from "@toolware/core";
import type { AnnotationsMatch, MatchDoc } from "../document.js";
import type { CompiledPolicy } from "./compile.js";
import { type CedarPart, cedarCall, celFacts, type PolicyCallDecision } from "./decide.js";
import { ANNOTATION_TAGS, annotationsHold, type CallFacts, compileNames } from "./match.js";

/** What `explain()` takes: a call described as data (no context needed). */
export interface ExplainCall {
  /** The tool's name. */
  readonly tool: string;
  readonly args?: Readonly<Record<string, unknown>>;
  /** The agent's role. */
  readonly agent?: string;
  readonly crew?: string;
  readonly caller?: string;
  readonly tags?: readonly string[];
  readonly destructive?: boolean;
  /**
   * The tool's MCP annotations, read as the MCP adapter hands them to the policy: `destructiveHint` is
   * `destructive`; `readOnlyHint`, `idempotentHint` and `openWorldHint` are the tags `read-only`, `idempotent` and
   * `open-world`.
   */
  readonly annotations?: AnnotationsMatch;
}

/** The keys of a rule's `match`, in the order `explain()` tries them. */
export type MatchKey = "tools" | "tags" | "annotations" | "agents" | "crews" | "callers" | "when";

/** What a rule's CEL condition gave for the explained call. */
export type ConditionResult =
  | { readonly source: string; readonly result: boolean }
  | { readonly source: string; readonly result: "error"; readonly error: string };

/** One rule of the policy, as it stands for the explained call. */
export interface ExplainedRule {
  readonly name: string;
  readonly matched: boolean;
  readonly decide: string | undefined;
  readonly mode: "enforce" | "shadow";
  /** Why the match did not hold: its first key (in {@link MatchKey} order) that failed. */
  readonly failed?: MatchKey;
  /** The rule's CEL condition and its result; absent when it has none or a key before `when` failed. */
  readonly condition?: ConditionResult;
}

/** Cedar's part in an explained call (present when the policy has a Cedar section). */
export interface CedarExplanation {
  /** Whether a Cedar policy can apply to this tool (one scoped to it, or to every tool). */
  readonly covers: boolean;
  /** Whether the decision asked Cedar: it does not when nothing covers the tool or a rule already denied. */
  readonly consulted: boolean;
  /** What Cedar answers for this call (also when it was not consulted); `none` when it does not cover the tool. */
  readonly effect: "allow" | "deny" | "approve" | "none";
  /** The Cedar policies behind `effect`, by id. */
  readonly policies: readonly string[];
  readonly reason: string | undefined;
}

/** What `explain()` returns: the decision, every rule with whether its match held and why, Cedar's answer. */
export interface PolicyExplanation extends PolicyCallDecision {
  readonly rules: readonly ExplainedRule[];
  /** The packs the matching rules attach, as `rule/pack`. */
  readonly packs: readonly string[];
  /** Cedar's answer; absent when the policy has no Cedar section. */
  readonly cedar?: CedarExplanation;
}

const CALL_KEYS = ["tool", "args", "agent", "crew", "caller", "tags", "destructive", "annotations"];
const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});
const invalid = (message: string) => new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", `explain(): ${message}`);

function optionalString(call: ExplainCall, key: "agent" | "crew" | "caller"): string | undefined {
  const value = call[key];
  if (value !== undefined && typeof value !== "string") throw invalid(`\`${key}\` must be a string`);
  return value;
}

/** Reads an explained call strictly: a misspelt key must not quietly explain a different call. */
function factsOf(call: ExplainCall): CallFacts {
  if (call === null || typeof call !== "object") throw invalid("takes a call { tool, args?, agent?, … }");
  for (const key of Object.keys(call)) {
    if (!CALL_KEYS.includes(key)) {
      const close = closestKey(key, CALL_KEYS);
      const hint = close === undefined ? "" : ` (did you mean "${close}"?)`;
      throw new ToolwareTypeError("TOOLWARE_UNKNOWN_OPTION", `explain(): unknown key \`${key}\`${hint}`);
    }
  }
  const { tool, args = EMPTY, tags = [], destructive, annotations = {} } = call;
  if (typeof tool !== "string" || tool === "") throw invalid("`tool` must be a non-empty string");
  if (args === null || typeof args !== "object" || Array.isArray(args)) throw invalid("`args` must be an object");
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) throw invalid("`tags` must be strings");
  if (destructive !== undefined && typeof destructive !== "boolean") throw invalid("`destructive` must be a boolean");
  const all = new Set<string>(tags);
  for (const [hint, tag] of Object.entries(ANNOTATION_TAGS)) {
    const value = annotations[hint as keyof typeof ANNOTATION_TAGS];
    if (value === true) all.add(tag);
    else if (value === false) all.delete(tag);
  }
  return {
    toolName: tool,
    args,
    tags: [...all],
    destructive: destructive ?? annotations.destructiveHint === true,
    agent: optionalString(call, "agent"),
    crew: optionalString(call, "crew"),
    caller: optionalString(call, "caller"),
  };
}

const WHO = [
  ["agents", "agent"],
  ["crews", "crew"],
  ["callers", "caller"],
] as const;

function failedKey(match: MatchDoc | undefined, facts: CallFacts): MatchKey | undefined {
  if (match === undefined) return undefined;
  if (match.tools !== undefined && !compileNames(match.tools)(facts.toolName)) return "tools";
  if (match.tags?.some((t) => facts.tags.includes(t)) === false) return "tags";
  const tool = { name: facts.toolName, tags: facts.tags, destructive: facts.destructive };
  if (match.annotations !== undefined && !annotationsHold(match.annotations, tool)) return "annotations";
  for (const [key, fact] of WHO) {
    const names = match[key];
    const who = facts[fact];
    if (names !== undefined && (who === undefined || !compileNames(names)(who))) return key;
  }
  return undefined;
}

function cedarPart(cedar: CedarPart, facts: CallFacts, decision: PolicyCallDecision): CedarExplanation {
  const covers = cedar.covers(facts.toolName);
  const ruleDenied = decision.effect === "deny" && decision.source === "rule";
  if (!covers) return { covers, consulted: false, effect: "none", policies: [], reason: undefined };
  const c = cedar.decide(cedarCall(facts));
  return { covers, consulted: !ruleDenied, effect: c.effect, policies: c.policies, reason: c.reason };
}

/** Decides a described call on `compiled` and says why, rule by rule. @internal */
export function explainCall(compiled: CompiledPolicy, call: ExplainCall): PolicyExplanation {
  const facts = factsOf(call);
  const { matchedIndex, shadowIndex: _s, index: _i, ...decision } = compiled.decider.decide(facts);
  const docs = compiled.loaded.document.rules;
  const rules = compiled.decider.rules.map((r): ExplainedRule => {
    const base = {
      name: r.name,
      matched: matchedIndex.includes(r.index),
      decide: r.decide,
      mode: r.shadow ? "shadow" : "enforce",
    } as const;
    const failed = failedKey(docs[r.index]?.match, facts);
    if (failed !== undefined) return { ...base, failed };
    const when = r.match.condition;
    if (when === undefined) return base;
    let condition: ConditionResult;
    try {
      const result = when.evaluate(celFacts(facts));
      condition = { source: when.source, result };
    } catch (error) {
      condition = { source: when.source, result: "error", error: messageOf(error) };
    }
    return condition.result === false ? { ...base, failed: "when", condition } : { ...base, condition };
  });
  const packs = compiled.attachments.filter((a) => matchedIndex.includes(a.rule)).map((a) => `${a.ruleName}/${a.name}`);
  const cedar = compiled.decider.cedar;
  return cedar === undefined
    ? { ...decision, rules, packs }
    : { ...decision, rules, packs, cedar: cedarPart(cedar, facts, decision) };
}
