import { packsSpec, storeRef } from "./spec-packs.js";
import {
  boolean,
  duration,
  list,
  MAX_ITEMS,
  MAX_STRING,
  object,
  oneOf,
  type RefineIssue,
  type Spec,
  string,
} from "./spec-types.js";

// The descriptor of a policy file: the one source of truth of the checker, schema.json and the file reference.

const RULE_NAME = /^[\p{L}\p{N}_](?:[\p{L}\p{N} _.:/@+-]{0,126}[\p{L}\p{N}_])?$/u;
const ruleName = string({
  noun: "a rule name",
  pattern: RULE_NAME,
  patternText: "^[\\p{L}\\p{N}_](?:[\\p{L}\\p{N} _.:/@+-]{0,126}[\\p{L}\\p{N}_])?$",
  patternMessage:
    "must be a name of letters, digits and _ . : / @ + - (spaces inside), at most 128 characters, such as no-deletes",
});

const names = (noun: string): Spec => list(string({ maxLength: 1024 }), { minItems: 1, maxItems: MAX_ITEMS, noun });
const modes = oneOf(["enforce", "shadow"]);

const approval = (defaults: string) =>
  object(
    {
      message: {
        spec: string({ maxLength: 4096 }),
        description: "What the person reads.",
        default: "the approval pack's question",
      },
      timeout: {
        spec: duration,
        as: "timeoutMs",
        description: "How long to wait for an answer (`90s`, `5m`, `1h`, or milliseconds).",
        default: defaults === "file" ? "the approval pack's (5 minutes)" : "the file's `approval.timeout`",
      },
      onTimeout: {
        spec: oneOf(["deny", "allow"]),
        description: "What a timeout means.",
        default: defaults === "file" ? "`deny`" : "the file's `approval.onTimeout`, else `deny`",
      },
      approvers: {
        spec: names("a list of approver names"),
        description: "Who may approve (providers that know approvers).",
        default: "anyone asked",
      },
      role: {
        spec: string({ maxLength: 256 }),
        description: "A role the approver must have (providers that know roles).",
        default: "none",
      },
    },
    { aliases: { timeoutMs: "timeout" } },
  );

const match = object({
  tools: {
    spec: names("a list of tool names"),
    description: "Tool names, exact or globs (`*` any run, `?` one character).",
    default: "any tool",
  },
  tags: { spec: names("a list of tags"), description: "The tool has at least one of these tags.", default: "any tags" },
  annotations: {
    spec: object({
      destructiveHint: {
        spec: boolean,
        description: "The tool's MCP `destructiveHint` is this value.",
        default: "not checked",
      },
      readOnlyHint: {
        spec: boolean,
        description: "The tool's MCP `readOnlyHint` is this value.",
        default: "not checked",
      },
      idempotentHint: {
        spec: boolean,
        description: "The tool's MCP `idempotentHint` is this value.",
        default: "not checked",
      },
      openWorldHint: {
        spec: boolean,
        description: "The tool's MCP `openWorldHint` is this value.",
        default: "not checked",
      },
    }),
    description: "MCP tool annotations the tool must carry, as cached from `tools/list`.",
    default: "not checked",
  },
  agents: {
    spec: names("a list of agent roles"),
    description: "Agent roles, exact or globs; a call with no agent matches none.",
    default: "any agent, or none",
  },
  crews: {
    spec: names("a list of crew names"),
    description: "Crew names, exact or globs.",
    default: "any crew, or none",
  },
  callers: {
    spec: names("a list of callers"),
    description: "Caller identities, exact or globs (as `loadPolicy`'s `caller` option resolves them).",
    default: "any caller",
  },
  when: {
    spec: string({ maxLength: 64 * 1024, noun: "a CEL expression" }),
    description: "A CEL expression over `args`, `tool`, `agent`, `crew` and `caller` that must be true.",
    default: "true",
  },
});

function refineRule(rule: Readonly<Record<string, unknown>>, failed: ReadonlySet<string>): RefineIssue[] {
  const issues: RefineIssue[] = [];
  if (failed.has("decide")) return issues;
  const decide = rule.decide;
  if (rule.approval !== undefined && decide !== "approve") {
    issues.push({ key: "approval", message: "`approval` applies only to a rule with `decide: approve`" });
  }
  if (rule.reason !== undefined && decide !== "deny" && decide !== "approve") {
    issues.push({
      key: "reason",
      message: "`reason` is what the agent reads when the rule denies: it needs `decide: deny` (or `approve`)",
    });
  }
  if (decide === undefined && rule.packs === undefined && !failed.has("packs")) {
    issues.push({ message: "the rule does nothing: give it `decide` or `packs`" });
  }
  return issues;
}

const rule = object(
  {
    name: {
      spec: ruleName,
      required: true,
      description: "Unique in the file: what traces, audit lines, counters and `explain` name.",
    },
    description: {
      spec: string({ maxLength: 4096 }),
      description: "What the rule is for (for people; not shown to agents).",
      default: "none",
    },
    mode: { spec: modes, description: "Overrides the file's `mode` for this rule.", default: "the file's `mode`" },
    match: {
      spec: match,
      description: "When the rule applies: every key given must hold; inside a list, any entry.",
      default: "every call",
    },
    decide: {
      spec: oneOf(["allow", "deny", "approve"]),
      description: "What the rule decides when it matches; deny beats approve beats allow.",
      default: "nothing (the rule only attaches packs)",
    },
    reason: {
      spec: string({ maxLength: 4096 }),
      description: "The reason the agent reads when this rule denies (`deny` or `approve`).",
      default: "a generic reason naming the rule",
    },
    approval: {
      spec: approval("rule"),
      description: "How an `approve` rule asks (only with `decide: approve`).",
      default: "the file's `approval`",
    },
    packs: {
      spec: packsSpec,
      description: "Packs attached to the calls the rule matches, with their options.",
      default: "none",
    },
  },
  {
    noun: "a rule",
    aliases: {
      when: "match.when",
      tools: "match.tools",
      agents: "match.agents",
      decision: "decide",
      action: "decide",
      effect: "decide",
      message: "reason",
    },
    refine: refineRule,
    schemaExtra: {
      // Implications as "not A, or B": `approval` needs `decide: approve`, `reason` needs deny or approve.
      allOf: [
        {
          anyOf: [
            { not: { required: ["approval"] } },
            { required: ["decide"], properties: { decide: { const: "approve" } } },
          ],
        },
        {
          anyOf: [
            { not: { required: ["reason"] } },
            { required: ["decide"], properties: { decide: { enum: ["deny", "approve"] } } },
          ],
        },
        { anyOf: [{ required: ["decide"] }, { required: ["packs"] }] },
      ],
    },
  },
);

function uniqueNames(rules: readonly unknown[]): RefineIssue[] {
  const seen = new Map<string, number>();
  const issues: RefineIssue[] = [];
  rules.forEach((value, index) => {
    const name = (value as { name?: unknown } | undefined)?.name;
    if (typeof name !== "string") return;
    const first = seen.get(name);
    if (first === undefined) seen.set(name, index);
    else
      issues.push({
        key: index,
        message: `rule names must be unique: ${JSON.stringify(name)} is also the name of rules[${first}]`,
      });
  });
  return issues;
}

function refinePolicy(policy: Readonly<Record<string, unknown>>, failed: ReadonlySet<string>): RefineIssue[] {
  if (!failed.has("default") && policy.defaultReason !== undefined && policy.default !== "deny") {
    return [{ key: "defaultReason", message: "`defaultReason` is read only when `default: deny` decides" }];
  }
  return [];
}

/** The whole file. */
export const policySpec = object(
  {
    version: {
      spec: { kind: "number", integer: true, minimum: 1, maximum: 1 },
      required: true,
      description: "The version of the file format: `1`.",
    },
    name: {
      spec: string({ maxLength: 256 }),
      description: "The policy's name, for logs and `explain`.",
      default: "the file's name",
    },
    mode: {
      spec: modes,
      description: "`enforce` blocks and asks; `shadow` decides, counts and logs, and allows everything.",
      default: "`enforce`",
    },
    default: {
      spec: oneOf(["allow", "deny"]),
      required: true,
      description: "The decision when no rule decides.",
    },
    defaultReason: {
      spec: string({ maxLength: 4096 }),
      description: "The reason an agent reads when `default: deny` decides.",
      default: "a generic reason",
    },
    stores: {
      spec: object({
        default: {
          spec: storeRef,
          description: "The store of every stateful pack that names none: `memory` or a Redis URL.",
          default: "`memory`",
        },
      }),
      description: "Where stateful packs keep their state.",
      default: "memory",
    },
    approval: {
      spec: approval("file"),
      description: "Defaults of every `approve` rule.",
      default: "the approval pack's",
    },
    cedar: {
      spec: object(
        {
          policies: {
            spec: string({ maxLength: MAX_STRING }),
            description: "Cedar policies, inline.",
            default: "none",
          },
          file: {
            spec: string({ maxLength: 4096 }),
            description: "A `.cedar` file of policies (relative to the policy file).",
            default: "none",
          },
          schema: {
            spec: string({ maxLength: MAX_STRING }),
            description: "The Cedar schema the policies are validated against, inline.",
            default: "the built-in schema",
          },
          schemaFile: {
            spec: string({ maxLength: 4096 }),
            description: "A `.cedarschema` file (relative to the policy file).",
            default: "the built-in schema",
          },
        },
        {
          refine: (cedar, failed) => {
            const out: RefineIssue[] = [];
            if (failed.size > 0) return out;
            if (cedar.policies !== undefined && cedar.file !== undefined)
              out.push({ key: "file", message: "give `policies` or `file`, not both" });
            if (cedar.schema !== undefined && cedar.schemaFile !== undefined)
              out.push({ key: "schemaFile", message: "give `schema` or `schemaFile`, not both" });
            if (cedar.policies === undefined && cedar.file === undefined)
              out.push({ message: "the `cedar` section needs `policies` or `file`" });
            return out;
          },
          schemaExtra: {
            allOf: [
              { oneOf: [{ required: ["policies"] }, { required: ["file"] }] },
              { not: { required: ["schema", "schemaFile"] } },
            ],
          },
        },
      ),
      description: "Cedar policies evaluated beside the rules; a `forbid` from either engine wins.",
      default: "none",
    },
    rules: {
      spec: list(rule, { maxItems: MAX_ITEMS, noun: "a list of rules", refine: uniqueNames }),
      required: true,
      description: "The rules, in order. Every rule whose `match` holds takes part; deny beats approve beats allow.",
    },
  },
  {
    noun: "a policy",
    refine: refinePolicy,
    aliases: { defaultDecision: "default", policies: "rules" },
    schemaExtra: {
      anyOf: [
        { not: { required: ["defaultReason"] } },
        { required: ["default"], properties: { default: { const: "deny" } } },
      ],
    },
  },
);
