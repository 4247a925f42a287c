import { definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { ownOptions } from "../internal/options.js";
import { nameForms, type ToolFacts } from "../internal/tool-match.js";
import { checkOptions, checkQuery } from "./options.js";
import {
  compilePolicy,
  compileRoles,
  compileRules,
  defaultReason,
  type GuardrailsBlock,
  type GuardrailsHit,
  type GuardrailsPolicy,
  type GuardrailsRule,
  judge,
  memo,
  type Verdict,
  warningText,
} from "./policy.js";

export type { DestructiveMatcher, TagMatcher, ToolMatcher } from "../internal/tool-match.js";
export type { GuardrailsBlock, GuardrailsPolicy, GuardrailsRule, ToolMatchers } from "./policy.js";

/** What `onWarn` receives. */
export interface GuardrailsWarning extends GuardrailsHit {
  readonly toolName: string;
  readonly role: string | undefined;
  /** A ready-made line for logs. */
  readonly message: string;
  /** The call; absent for warnings from `check()`. */
  readonly ctx: ToolCallHookContext | undefined;
}

/** Options of {@link guardrails}. */
export interface GuardrailsOptions extends GuardrailsPolicy {
  /** Extra policies per agent role (keys are roles or globs, compared normalised). */
  byRole?: Readonly<Record<string, GuardrailsPolicy>>;
  /** Extra policies that apply when their `when(ctx)` holds. */
  rules?: readonly GuardrailsRule[];
  /** Receives warn-list hits. Default: `console.warn`. A throw here is reported and never blocks. */
  onWarn?: (warning: GuardrailsWarning) => void;
  /** The reason the agent reads: a fixed string or built from the block. */
  message?: string | ((block: GuardrailsBlock) => string);
  /** Tool names that normalise to nothing (no ASCII letter or digit) are blocked unless `"allow"`. Default `"block"`. */
  unmatchableNames?: "block" | "allow";
  /** Chain position. Default 0. */
  priority?: number;
}

/** A tool description for the `check()` method of a {@link GuardrailsPack}. */
export interface GuardrailsQuery {
  toolName: string;
  tags?: readonly string[];
  destructive?: boolean;
  role?: string;
}

/** What the `check()` method of a {@link GuardrailsPack} answers. */
export interface GuardrailsDecision {
  readonly allowed: boolean;
  readonly block: GuardrailsBlock | undefined;
  /** The agent-facing reason when blocked. */
  readonly reason: string | undefined;
  readonly warnings: readonly GuardrailsWarning[];
}

/** The pack {@link guardrails} returns. */
export type GuardrailsPack = Pack<{
  /** Decides for a tool and role without running anything; `rules` (which need a live call) are not consulted. */
  check(query: GuardrailsQuery): GuardrailsDecision;
}>;

const PREFIX = "toolware/guardrails";
function facts(tool: Partial<ToolFacts> | undefined, name: string): ToolFacts {
  return { name, tags: Array.isArray(tool?.tags) ? tool.tags : [], destructive: tool?.destructive === true };
}

/**
 * Deny, allow and warn lists of tools, globally, per agent role and per
 * conditional rule. Entries are names, globs, RegExps or tag matchers
 * (`{ tag: "destructive" }`); names are compared after `normalizeName`, and deny
 * and warn lists also fold Cyrillic and Greek look-alike letters. A denied call
 * (or one missing from an allow list) is blocked with a reason the agent reads.
 * Deny wins over allow; warnings go to `onWarn` and never block. A guard: it
 * fails closed (`onError: "block"`).
 *
 * @example
 * ```ts
 * hooks.use(
 *   guardrails({
 *     deny: ["delete_file", "drop_table", { tag: "destructive" }],
 *     warn: ["send_email", "charge_payment"],
 *     byRole: { junior_agent: { deny: ["delete_file", "send_email"] } },
 *   }),
 * );
 * const out = await hooks.invoke(dropTable, { table: "users" });
 * // out.status === "blocked", out.reason === "drop_table is on the deny list (drop_table)"
 * ```
 */
export function guardrails(options: GuardrailsOptions): GuardrailsPack {
  options = ownOptions(options, PREFIX);
  checkOptions(options);
  // compilePolicy treats an explicit `undefined` like a missing list.
  const global = compilePolicy(
    { deny: options.deny, allow: options.allow, warn: options.warn },
    `${PREFIX}:`,
    "global",
  );
  const roles = compileRoles(options.byRole);
  const rules = compileRules(options.rules);
  const hasLists =
    global.deny.length > 0 ||
    global.allow !== undefined ||
    global.warn.length > 0 ||
    roles.length > 0 ||
    rules.length > 0;
  if (!hasLists) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: give at least one of deny, allow, warn, byRole or rules`,
    );
  }
  const guardsNames =
    global.deny.length > 0 ||
    global.allow !== undefined ||
    roles.some((r) => r.policy.deny.length > 0 || r.policy.allow !== undefined) ||
    rules.some((r) => r.policy.deny.length > 0 || r.policy.allow !== undefined);
  const blockUnmatchable = (options.unmatchableNames ?? "block") === "block" && guardsNames;
  const { message } = options;
  const onWarn = options.onWarn ?? ((w: GuardrailsWarning) => console.warn(`${PREFIX}: ${w.message}`));

  const staticVerdict = (toolName: string, tool: ToolFacts, role: string | undefined): Verdict => {
    const names = nameForms(toolName);
    if (blockUnmatchable && names.normalized === "") {
      return {
        deny: { kind: "unmatchable", toolName, role, scope: "global", matched: undefined },
        allowMiss: undefined,
        warns: [],
      };
    }
    const policies = [global];
    if (role !== undefined) {
      const roleNames = nameForms(role);
      for (const r of roles) if (r.key.test(roleNames, tool)) policies.push(r.policy);
    }
    return judge(policies, names, tool, role);
  };

  // Verdicts depend only on the tool and the role; tools made by defineTool are frozen, so cache by object.
  const cache = new WeakMap<object, Map<string, Verdict>>();
  const verdictFor = (ctx: ToolCallHookContext, role: string | undefined): Verdict =>
    memo(cache, ctx.tool, role, () => staticVerdict(ctx.toolName, facts(ctx.tool, ctx.toolName), role));

  const reasonOf = (block: GuardrailsBlock): string => {
    if (typeof message === "string") return message;
    if (message === undefined) return defaultReason(block);
    const reason: unknown = message(block);
    // A throw here fails the hook, which blocks: a broken message function never lets a call through.
    // A blank reason would tell the agent nothing about why it was stopped.
    if (typeof reason !== "string" || reason.trim() === "") {
      throw packTypeError(
        "TOOLWARE_INVALID_RETURN",
        `${PREFIX}: \`message\` returned ${typeof reason === "string" ? "a blank string" : shown(reason)}, not a string`,
      );
    }
    return reason;
  };

  const warning = (hit: GuardrailsHit, toolName: string, role: string | undefined, ctx?: ToolCallHookContext) => ({
    ...hit,
    toolName,
    role,
    message: warningText(toolName, hit),
    ctx,
  });

  const emit = (w: GuardrailsWarning, ctx: ToolCallHookContext): void => {
    // An observer: a broken logger must not turn a warning into a block; it goes where listener errors go.
    const report = (e: unknown): void => ctx.reportError("guardrails.onWarn", e);
    try {
      const r = onWarn(w) as unknown;
      if (r instanceof Promise) r.catch(report);
    } catch (e) {
      report(e);
    }
  };

  function guardrailsCheck(ctx: ToolCallHookContext): void {
    const role = ctx.agent?.role;
    const base = verdictFor(ctx, role);
    let { deny, allowMiss } = base;
    let warns = base.warns;
    if (deny === undefined || deny.kind !== "unmatchable") {
      for (const rule of rules) {
        if (!rule.when(ctx)) continue;
        const v = memo(rule.cache, ctx.tool, role, () =>
          judge([rule.policy], nameForms(ctx.toolName), facts(ctx.tool, ctx.toolName), role),
        );
        deny ??= v.deny;
        allowMiss ??= v.allowMiss;
        if (v.warns.length > 0) warns = [...warns, ...v.warns];
      }
    }
    const block = deny ?? allowMiss;
    if (block !== undefined) {
      ctx.block(reasonOf(block));
      return;
    }
    for (const hit of warns) emit(warning(hit, ctx.toolName, role, ctx), ctx);
  }

  return definePack({
    name: "guardrails",
    hooks: [
      {
        kind: "before",
        fn: guardrailsCheck,
        options: { name: "guardrails", onError: "block", priority: options.priority ?? 0 },
      },
    ],
    check(query: GuardrailsQuery): GuardrailsDecision {
      checkQuery(query);
      const v = staticVerdict(query.toolName, facts(query, query.toolName), query.role);
      const block = v.deny ?? v.allowMiss;
      return {
        allowed: block === undefined,
        block,
        reason: block === undefined ? undefined : reasonOf(block),
        warnings: block === undefined ? v.warns.map((h) => warning(h, query.toolName, query.role)) : [],
      };
    },
  });
}
