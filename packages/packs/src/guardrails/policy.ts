import type { ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject, ownOptions } from "../internal/options.js";
import { isCanonicalName, visibleName } from "../internal/spelling.js";
import {
  type CompiledMatcher,
  compileMatcher,
  compileMatchers,
  firstMatch,
  type NameForms,
  type ToolFacts,
  type ToolMatcher,
} from "../internal/tool-match.js";

/** One or several tool matchers. */
export type ToolMatchers = ToolMatcher | readonly ToolMatcher[];

/** Deny, allow and warn lists; used globally, per role and per conditional rule. */
export interface GuardrailsPolicy {
  /** Tools that are always blocked (deny wins over allow). */
  deny?: ToolMatchers;
  /** When set, every tool not on it is blocked. */
  allow?: ToolMatchers;
  /** Tools that run but are reported to `onWarn`. */
  warn?: ToolMatchers;
}

/** Why a call was refused; `message` builds the agent-facing reason from it. */
export interface GuardrailsBlock {
  /** `deny`: on a deny list; `allow`: missing from an allow list; `unmatchable`: the name cannot be checked. */
  readonly kind: "deny" | "allow" | "unmatchable";
  readonly toolName: string;
  readonly role: string | undefined;
  /** Where the list lives: `"global"`, `"role <key>"` or `"rule <name>"`. */
  readonly scope: string;
  /** The entry that matched (deny lists only). */
  readonly matched: string | undefined;
}

/** A warn-list hit. */
export interface GuardrailsHit {
  readonly scope: string;
  readonly matched: string;
}

/** The result of checking one tool against some policies. */
export interface Verdict {
  readonly deny: GuardrailsBlock | undefined;
  readonly allowMiss: GuardrailsBlock | undefined;
  readonly warns: readonly GuardrailsHit[];
}

/** A policy with its lists compiled: deny and warn match loosely, allow strictly. */
export interface CompiledPolicy {
  readonly scope: string;
  readonly deny: readonly CompiledMatcher[];
  readonly allow: readonly CompiledMatcher[] | undefined;
  readonly warn: readonly CompiledMatcher[];
}

const POLICY_KEYS = ["deny", "allow", "warn"];
/** Names other libraries (and the seed's constants) use for the lists, for the "did you mean" hints. */
export const LIST_ALIASES: Readonly<Record<string, string>> = {
  block: "deny",
  blocked: "deny",
  blocklist: "deny",
  blockList: "deny",
  denylist: "deny",
  denyList: "deny",
  blockedTools: "deny",
  allowed: "allow",
  allowlist: "allow",
  allowList: "allow",
  allowedTools: "allow",
  warnList: "warn",
  warnlist: "warn",
  roles: "byRole",
  perRole: "byRole",
  by_role: "byRole",
};

/**
 * Checks and compiles one policy object; `extra` lists keys the caller handles itself. A nested
 * policy (a role's, a rule's) must hold at least one list: without one it would silently apply nothing.
 */
export function compilePolicy(
  policy: unknown,
  where: string,
  scope: string,
  extra: readonly string[] = [],
): CompiledPolicy {
  const nested = !where.endsWith(":");
  const name = where.replace(/:$/, "");
  // Read once: a list present when checked is the list compiled.
  policy = ownOptions(policy, name);
  checkOptionsObject(policy, `${name} must be an object { deny?, allow?, warn? }`);
  checkKeys(policy as object, [...POLICY_KEYS, ...extra], name, { aliases: LIST_ALIASES });
  const p = policy as GuardrailsPolicy;
  if (nested && p.deny === undefined && p.allow === undefined && p.warn === undefined) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${name} has no list: give it deny, allow or warn (an entry without one would apply nothing)`,
    );
  }
  // The global lists are reported as "toolware/guardrails: deny", nested ones as "…: byRole.x.deny".
  const at = (list: string): string => (where.endsWith(":") ? `${where} ${list}` : `${where}.${list}`);
  return {
    scope,
    deny: p.deny === undefined ? [] : compileMatchers(p.deny, at("deny"), true),
    allow: p.allow === undefined ? undefined : compileMatchers(p.allow, at("allow"), false),
    warn: p.warn === undefined ? [] : compileMatchers(p.warn, at("warn"), true),
  };
}

/** Compiles a role key (exact or glob, normalised; look-alikes folded so a restriction never misses). */
export function compileRole(key: string, where: string): CompiledMatcher {
  return compileMatcher(key, where, true);
}

/** Applies policies in order: the first deny and the first allow-list miss are kept, every warning too. */
export function judge(
  policies: readonly CompiledPolicy[],
  names: NameForms,
  tool: ToolFacts,
  role: string | undefined,
): Verdict {
  let deny: GuardrailsBlock | undefined;
  let allowMiss: GuardrailsBlock | undefined;
  const warns: GuardrailsHit[] = [];
  const toolName = names.raw;
  for (const p of policies) {
    if (deny === undefined) {
      const hit = firstMatch(p.deny, names, tool);
      if (hit !== undefined) deny = { kind: "deny", toolName, role, scope: p.scope, matched: hit.label };
    }
    if (allowMiss === undefined && p.allow !== undefined && firstMatch(p.allow, names, tool) === undefined) {
      allowMiss = { kind: "allow", toolName, role, scope: p.scope, matched: undefined };
    }
    for (const m of p.warn) if (m.test(names, tool)) warns.push({ scope: p.scope, matched: m.label });
  }
  return { deny, allowMiss, warns };
}

function where(block: GuardrailsBlock): string {
  return block.scope === "global" ? "" : ` of ${block.scope}`;
}

/** The default agent-facing reason. */
export function defaultReason(block: GuardrailsBlock): string {
  switch (block.kind) {
    // An invisible character would make the reason name a tool that looks like another: show it.
    case "deny":
      return `${visibleName(block.toolName)} is on the deny list${where(block)} (${block.matched})`;
    case "allow":
      return isCanonicalName(block.toolName)
        ? `${block.toolName} is not on the allow list${where(block)}`
        : `${visibleName(block.toolName)} is not on the allow list${where(block)} (allow lists admit only the canonical spelling: no invisible, fullwidth or other compatibility characters)`;
    default:
      return `the tool name ${JSON.stringify(block.toolName)} cannot be checked against the guardrails`;
  }
}

/** The default warning text. */
export function warningText(toolName: string, hit: GuardrailsHit): string {
  const scope = hit.scope === "global" ? "" : `, ${hit.scope}`;
  return `executing sensitive tool ${visibleName(toolName)} (warn list${scope}: ${hit.matched})`;
}

/** A policy that applies only to calls for which `when` holds (e.g. by task). */
export interface GuardrailsRule extends GuardrailsPolicy {
  /** Shown in reasons and warnings as `rule <name>`; defaults to `#<index>`. */
  name?: string;
  /** Decides per call; a throw fails the hook, which blocks the call. */
  when: (ctx: ToolCallHookContext) => boolean;
}

const PREFIX = "toolware/guardrails";
const NO_ROLE = "\u0000";

/** A conditional rule, compiled. */
export interface CompiledRule {
  readonly when: (ctx: ToolCallHookContext) => boolean;
  readonly policy: CompiledPolicy;
  readonly cache: WeakMap<object, Map<string, Verdict>>;
}

/** Caches a verdict per tool object and role. */
export function memo(
  cache: WeakMap<object, Map<string, Verdict>>,
  tool: object,
  role: string | undefined,
  compute: () => Verdict,
): Verdict {
  const key = role ?? NO_ROLE;
  let byRole = cache.get(tool);
  const hit = byRole?.get(key);
  if (hit !== undefined) return hit;
  const verdict = compute();
  // Only frozen tools (defineTool freezes them) are cached: a mutable tool could change its tags.
  if (Object.isFrozen(tool)) {
    if (byRole === undefined) {
      byRole = new Map();
      cache.set(tool, byRole);
    }
    byRole.set(key, verdict);
  }
  return verdict;
}

/** Checks and compiles `byRole`. */
export function compileRoles(byRole: unknown): { key: CompiledMatcher; policy: CompiledPolicy }[] {
  if (byRole === undefined) return [];
  checkOptionsObject(byRole, `${PREFIX}: \`byRole\` must be an object { [role]: { deny?, allow?, warn? } }`);
  const entries = Object.entries(byRole as object);
  if (entries.length === 0) {
    throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`byRole\` has no roles (leave it out instead)`);
  }
  return entries.map(([role, policy]) => ({
    key: compileRole(role, `${PREFIX}: byRole key`),
    policy: compilePolicy(policy, `${PREFIX}: byRole.${role}`, `role ${role}`),
  }));
}

/** Checks and compiles `rules`. */
export function compileRules(rules: unknown): CompiledRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`rules\` must be an array of { when, deny?, allow?, warn? }, got ${shown(rules)}`,
    );
  }
  if (rules.length === 0) {
    throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`rules\` is empty (leave it out instead)`);
  }
  return rules.map((given: GuardrailsRule, i) => {
    const where = `${PREFIX}: rules[${i}]`;
    const rule = ownOptions(given, where);
    checkOptionsObject(rule, `${where} must be an object { when, deny?, allow?, warn? }`);
    if (typeof rule.when !== "function") {
      throw packTypeError("TOOLWARE_INVALID_OPTION", `${where} needs a \`when(ctx)\` function`);
    }
    if (rule.name !== undefined && (typeof rule.name !== "string" || rule.name.trim() === "")) {
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${where}.name must be a non-empty string, got ${shown(rule.name)}`,
      );
    }
    const policy = compilePolicy(rule, where, `rule ${rule.name ?? `#${i}`}`, ["when", "name"]);
    return { when: rule.when, policy, cache: new WeakMap() };
  });
}
