/**
 * The shape of a policy file once loaded and checked: what the loader (`load/`) produces and the runtime
 * (`runtime/`) and the Cedar engine (`cedar/`) consume. Every field is plain data (YAML or JSON), already checked:
 * unknown keys refused, types and ranges checked, durations turned into milliseconds, defaults NOT filled in
 * (the runtime applies them, so `explain` can say what the file said).
 *
 * A policy file, in YAML:
 *
 * ```yaml
 * version: 1
 * name: crew-policy
 * mode: enforce            # or shadow: decide, count and log, but allow everything
 * default: allow           # the decision when no rule decides: allow | deny
 * stores: { default: memory }          # or redis://127.0.0.1:6379
 * approval: { timeout: 5m, onTimeout: deny }
 * cedar: { file: ./toolware.cedar, schemaFile: ./toolware.cedarschema }
 * rules:
 *   - name: juniors-cannot-delete
 *     match: { tools: [delete_file, "fs_*"], agents: [junior_agent] }
 *     decide: deny
 *     reason: junior agents cannot delete files
 *   - name: no-paths-outside-work
 *     match: { tools: [write_file], when: 'args.path.contains("..")' }
 *     decide: deny
 *     reason: paths must stay inside the work folder
 *   - name: ask-before-email
 *     match: { tools: [send_email] }
 *     decide: approve
 *     approval: { timeout: 2m, message: "Send this email?" }
 *   - name: everything
 *     packs:
 *       redact: {}
 *       rate-limit: { max: 30, per: 1m, key: tool+agent }
 *       audit: { file: ./audit.jsonl }
 * ```
 *
 * Decisions: every rule whose `match` holds takes part; deny beats approve beats allow; with no deciding rule the
 * file's `default` applies. The first matching rule of the winning decision is "the deciding rule" (its name goes to
 * the trace, `explain()`, the audit line and the OTel span). Packs of every matching rule are attached, in file order.
 * A rule in `shadow` mode (or every rule of a `shadow` file) decides and is counted and logged, but never blocks or asks.
 */

/** Where something is in the policy file: 1-based line and column. */
export interface SourceSpan {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A key path into the document, such as `["rules", 2, "match", "tools"]`. */
export type KeyPath = readonly (string | number)[];

/** What a rule does when it matches. `approve` asks a person (the approval pack). */
export type PolicyDecision = "allow" | "deny" | "approve";

/** `enforce` blocks and asks; `shadow` decides, counts and logs what would have been blocked or asked, and allows. */
export type PolicyMode = "enforce" | "shadow";

/** A store: `memory`, or a Redis URL (`redis://…`, `rediss://…`) served by `@toolware/redis`. */
export type StoreRef = "memory" | `redis://${string}` | `rediss://${string}`;

/** The MCP tool annotations a rule can match on (cached from `tools/list` by the MCP adapter and the gateway). */
export interface AnnotationsMatch {
  readonly destructiveHint?: boolean;
  readonly readOnlyHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** When a rule applies. Every key given must hold (AND); inside a list, any entry may match (OR). */
export interface MatchDoc {
  /** Tool names: exact, or globs (`*` any run of characters, `?` one). */
  readonly tools?: readonly string[];
  /** The tool has at least one of these tags. */
  readonly tags?: readonly string[];
  readonly annotations?: AnnotationsMatch;
  /** Agent roles (exact or glob); a call with no agent matches no entry. */
  readonly agents?: readonly string[];
  /** Crew names (exact or glob). */
  readonly crews?: readonly string[];
  /** Caller identities (exact or glob), as the `caller` option of `loadPolicy` resolves them. */
  readonly callers?: readonly string[];
  /** A CEL expression over `args`, `tool`, `agent`, `crew`, `caller`; must yield a boolean. */
  readonly when?: string;
}

/** How an `approve` rule asks. Fields left out take the file's `approval` defaults, then the approval pack's. */
export interface ApprovalDoc {
  /** What the person reads. */
  readonly message?: string;
  /** Milliseconds (the file may say `90s`, `5m`, `1h`). */
  readonly timeoutMs?: number;
  /** What a timeout means. Default `deny`. */
  readonly onTimeout?: "deny" | "allow";
  /** Who may approve (approver names), for providers that know approvers (the inbox). */
  readonly approvers?: readonly string[];
  /** A role the approver must have (the inbox). */
  readonly role?: string;
}

/** Tool names or globs a pack option narrows itself to (the rule's `match` already chose the calls). */
export type ToolNamesDoc = readonly string[];

/** `redact`: the data options of `@toolware/packs/redact` (`replacers` are functions: code only). */
export interface RedactPackDoc {
  readonly secrets?: boolean;
  readonly emails?: boolean;
  readonly cards?: boolean;
  readonly keys?: readonly string[];
  /** Matched literally (a file holds no RegExp). */
  readonly patterns?: readonly string[];
  readonly placeholders?: {
    readonly secret?: string;
    readonly email?: string;
    readonly card?: string;
    readonly custom?: string;
  };
  readonly maxDepth?: number;
  readonly structured?: boolean;
  readonly inputsInLogs?: boolean;
  readonly priority?: number;
}

/** `validate.safePath`: `safePath()` of `@toolware/packs/validate`; `tools` defaults to the rule's calls. */
export interface SafePathDoc {
  readonly root: string;
  readonly fields?: readonly string[];
  readonly followSymlinks?: boolean;
  readonly allowRoot?: boolean;
  readonly required?: boolean;
  readonly rewrite?: boolean;
  readonly tools?: ToolNamesDoc;
  readonly priority?: number;
}

/** `validate.query`: `queryRules()` of `@toolware/packs/validate`; `tools` defaults to the rule's calls. */
export interface QueryRulesDoc {
  readonly field?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly trim?: boolean;
  readonly collapseWhitespace?: boolean;
  readonly lowercase?: boolean;
  readonly required?: boolean;
  readonly tools?: ToolNamesDoc;
  readonly priority?: number;
}

/**
 * `validate`: path and query checks as data. `requireSchema`, `writeBack`, `maxIssues` and `priority` are the
 * `validate()` pack's own options, for Standard Schemas handed over in code (a file cannot hold a schema object).
 */
export interface ValidatePackDoc {
  readonly safePath?: SafePathDoc;
  readonly query?: QueryRulesDoc;
  readonly requireSchema?: boolean;
  readonly writeBack?: boolean;
  readonly maxIssues?: number;
  readonly priority?: number;
}

/** `rate-limit`: `per` in milliseconds (the file may say `1m`); `store` by reference. */
export interface RateLimitPackDoc {
  readonly max: number;
  readonly per: number;
  readonly key?: "tool" | "agent" | "global" | "tool+agent";
  readonly algorithm?: "sliding-window" | "token-bucket";
  readonly store?: StoreRef;
  readonly keyPrefix?: string;
  readonly message?: string;
  readonly tools?: ToolNamesDoc;
  readonly priority?: number;
}

/** `cache`: `ttl` in milliseconds; `tools` defaults to the rule's calls. */
export interface CachePackDoc {
  readonly ttl?: number;
  readonly maxEntries?: number;
  readonly scope?: "global" | "agent" | "crew";
  readonly dedupe?: boolean;
  readonly store?: StoreRef;
  readonly tools?: ToolNamesDoc;
  readonly priority?: number;
}

/** `loop-guard`: `windowMs` in milliseconds. */
export interface LoopGuardPackDoc {
  readonly maxRepeats?: number | false;
  readonly maxInWindow?: number;
  readonly windowMs?: number;
  readonly sameInput?: boolean;
  readonly scope?: "agent" | "crew" | "global";
  readonly action?: "warn" | "block";
  readonly message?: string;
  readonly historySize?: number;
  readonly store?: StoreRef;
  readonly tools?: ToolNamesDoc;
  readonly priority?: number;
}

/** `timeout`: `ms` in milliseconds, one for every tool or per tool. */
export interface TimeoutPackDoc {
  readonly ms: number | { readonly default?: number; readonly perTool?: Readonly<Record<string, number>> };
  readonly message?: string;
  readonly tools?: ToolNamesDoc;
}

/** `retry`: delays in milliseconds. */
export interface RetryPackDoc {
  readonly retries?: number;
  readonly minDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly factor?: number;
  readonly jitter?: "full" | "none" | number;
  readonly tools?: ToolNamesDoc;
}

/** `circuit-breaker`: `cooldownMs` in milliseconds. */
export interface CircuitBreakerPackDoc {
  readonly failureThreshold?: number;
  readonly cooldownMs?: number;
  readonly halfOpenMax?: number;
  readonly key?: "tool";
  readonly message?: string;
  readonly store?: StoreRef;
  readonly tools?: ToolNamesDoc;
}

/** `audit`: the data options of `@toolware/packs/audit` (`file` relative to the policy file's folder). */
export interface AuditPackDoc {
  readonly file: string;
  readonly durability?: "fsync" | "write";
  readonly maxBytes?: number;
  readonly maxInput?: number;
  readonly maxResult?: number;
  readonly onError?: "block" | "continue";
  readonly tools?: ToolNamesDoc;
  readonly priority?: number;
}

/**
 * Packs a rule attaches, by pack name, with their options as data (no functions). Each maps to the pack of
 * `@toolware/packs/<name>` with the same option names where the pack's option is data; durations are already
 * milliseconds, stores are {@link StoreRef}s.
 */
export interface PacksDoc {
  readonly redact?: RedactPackDoc;
  readonly validate?: ValidatePackDoc;
  readonly "rate-limit"?: RateLimitPackDoc;
  readonly cache?: CachePackDoc;
  readonly "loop-guard"?: LoopGuardPackDoc;
  readonly timeout?: TimeoutPackDoc;
  readonly retry?: RetryPackDoc;
  readonly "circuit-breaker"?: CircuitBreakerPackDoc;
  readonly audit?: AuditPackDoc;
}

/** One rule of the file. */
export interface RuleDoc {
  /** Unique in the file; what traces, audit lines, counters and `explain` name. */
  readonly name: string;
  readonly description?: string;
  /** Overrides the file's mode for this rule. */
  readonly mode?: PolicyMode;
  /** Left out: the rule applies to every call. */
  readonly match?: MatchDoc;
  /** Left out: the rule decides nothing (it only attaches packs). */
  readonly decide?: PolicyDecision;
  /** The reason the agent reads when this rule denies. */
  readonly reason?: string;
  /** Only with `decide: approve`. */
  readonly approval?: ApprovalDoc;
  readonly packs?: PacksDoc;
}

/** The Cedar section: policies (and their schema) inline or in files next to the policy file. */
export interface CedarDoc {
  readonly policies?: string;
  readonly file?: string;
  readonly schema?: string;
  readonly schemaFile?: string;
}

/** A whole policy file, checked. */
export interface PolicyDocument {
  readonly version: 1;
  readonly name?: string;
  readonly mode?: PolicyMode;
  /** Required: the file states its default decision. */
  readonly default: "allow" | "deny";
  /** The reason an agent reads when `default: deny` decides. */
  readonly defaultReason?: string;
  readonly stores?: { readonly default?: StoreRef };
  readonly approval?: ApprovalDoc;
  readonly cedar?: CedarDoc;
  readonly rules: readonly RuleDoc[];
}

/**
 * One problem found in a policy file. `line` and `column` are 1-based; both are 0 for an object checked in code
 * (`checkPolicyObject`), which has no positions.
 */
export interface PolicyLoadIssue extends SourceSpan {
  /** Where in the document, such as `["rules", 2, "decide"]`; `[]` for the file as a whole. */
  readonly path: KeyPath;
  readonly message: string;
  /** What was probably meant: a key or value close to the one written (`did you mean "x"?`). */
  readonly hint?: string;
}

/** A document with where each of its keys was written, so later errors (CEL, Cedar, packs) can point at the file. */
export interface LoadedDocument {
  readonly document: PolicyDocument;
  /** The file it came from (`<inline>` for an object). */
  readonly file: string;
  /** The position of a key path (the value's start); the nearest enclosing key's when the exact one is unknown. */
  locate(path: KeyPath): SourceSpan | undefined;
}
