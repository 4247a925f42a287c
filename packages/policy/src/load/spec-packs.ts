import {
  boolean,
  choice,
  duration,
  durationOrZero,
  type Field,
  integer,
  list,
  MAX_ITEMS,
  number,
  type ObjectSpec,
  object,
  oneOf,
  priority,
  type Spec,
  string,
} from "./spec-types.js";

// The data options of each pack of @toolware/packs, under the pack's own option names (functions, RegExps,
// schema objects and store objects cannot be written in a file). `store` names a store: memory or Redis by URL.

/** `memory`, or a Redis URL. */
export const storeRef: Spec = string({
  noun: "a store",
  pattern: /^(?:memory|rediss?:\/\/[^\s/?#]+(?:[/?#]\S*)?)$/,
  patternText: "^(?:memory|rediss?://[^\\s/?#]+(?:[/?#]\\S*)?)$",
  patternMessage: 'must be "memory" or a Redis URL such as "redis://127.0.0.1:6379"',
});

const names = (what: string): Spec => list(string({ maxLength: 1024 }), { minItems: 1, noun: what });

/**
 * A tool name or glob (or an agent role, a crew name, a key name), as toolware compares names: normalised. A name
 * with no letter, digit or glob character normalises to nothing and would match nothing.
 */
export const toolName = string({
  maxLength: 1024,
  normalized: true,
  pattern: /[A-Za-z0-9*?]|[^\p{ASCII}]/u,
  patternText: "[A-Za-z0-9*?]|[^\\p{ASCII}]",
  patternMessage: "must have a letter, a digit or a glob character (* or ?)",
});

/** A list of tool names (or agent roles, crew names: compared the same way). */
export const nameList = (noun: string): Spec => list(toolName, { minItems: 1, maxItems: MAX_ITEMS, noun });

const tools: Field = {
  spec: nameList("a list of tool names"),
  description: "Narrows the pack to these tool names or globs, inside the calls the rule matches.",
  default: "every call the rule matches",
};
const store: Field = {
  spec: storeRef,
  description: "Where the pack keeps its state: `memory` or a Redis URL (`redis://…`, `rediss://…`).",
  default: "`stores.default`, else memory",
};
const message: Field = {
  spec: string({ maxLength: 4096 }),
  description: "The reason the agent reads when the pack blocks a call.",
  default: "the pack's",
};

const redact = object({
  secrets: {
    spec: boolean,
    description: "Redact API keys, tokens, JWTs, private keys and `key=value` secrets.",
    default: "`true`",
  },
  emails: { spec: boolean, description: "Redact e-mail addresses.", default: "`true`" },
  cards: { spec: boolean, description: "Redact Luhn-valid card numbers.", default: "`true`" },
  keys: {
    spec: nameList("a list of key names"),
    description: "More key names whose values are secrets.",
    default: "none",
  },
  patterns: {
    spec: names("a list of strings"),
    description: "Strings redacted wherever they appear (matched literally).",
    default: "none",
  },
  placeholders: {
    spec: object({
      secret: { spec: string(), description: "What replaces a secret.", default: "`[REDACTED]`" },
      email: { spec: string(), description: "What replaces an e-mail address.", default: "`[EMAIL-REDACTED]`" },
      card: { spec: string(), description: "What replaces a card number.", default: "`[CARD-REDACTED]`" },
      custom: { spec: string(), description: "What replaces a match of `patterns`.", default: "`[REDACTED]`" },
    }),
    description: "What replaces each kind of match.",
    default: "as listed",
  },
  maxDepth: { spec: integer(1), description: "Values nested deeper than this are replaced whole.", default: "`64`" },
  structured: {
    spec: boolean,
    description: "Redact object results as values and serialise them again.",
    default: "`true`",
  },
  inputsInLogs: {
    spec: boolean,
    description: "Offer a redacted copy of the input to logging hooks.",
    default: "`false`",
  },
  priority,
});

const safePath = object({
  root: {
    spec: string(),
    description: "The folder every path must stay inside (relative to the working directory).",
    required: true,
  },
  fields: {
    spec: names("a list of input keys"),
    description: "Input keys holding a path or a list of paths.",
    default: "`[path]`",
  },
  followSymlinks: {
    spec: boolean,
    description: "Also resolve symbolic links (reads the file system).",
    default: "`false`",
  },
  allowRoot: { spec: boolean, description: "Accept the root itself (`.`).", default: "`true`" },
  required: { spec: boolean, description: "Block calls missing a field.", default: "`true`" },
  rewrite: {
    spec: boolean,
    description: "Replace each path in the input by its resolved absolute path.",
    default: "`false`",
  },
  tools,
  priority,
});

// Checks across keys the packs make when they are built, made here so the error names the line.
const ordered =
  (low: string, high: string, lowDefault: number, highDefault: number) =>
  (value: Readonly<Record<string, unknown>>, failed: ReadonlySet<string>) => {
    if (failed.has(low) || failed.has(high)) return [];
    const a = (value[low] as number | undefined) ?? lowDefault;
    const b = (value[high] as number | undefined) ?? highDefault;
    if (a <= b) return [];
    const at = value[high] !== undefined ? high : low;
    return [{ key: at, message: `\`${low}\` (${a}) is more than \`${high}\` (${b})` }];
  };

const query = object(
  {
    field: { spec: string(), description: "The input key holding the query.", default: "`query`" },
    minLength: { spec: integer(0), description: "Fewest characters after sanitising.", default: "`1`" },
    maxLength: { spec: integer(1), description: "Most characters after sanitising.", default: "no limit" },
    trim: { spec: boolean, description: "Strip whitespace and invisible characters at both ends.", default: "`true`" },
    collapseWhitespace: { spec: boolean, description: "Turn runs of whitespace into one space.", default: "`false`" },
    lowercase: { spec: boolean, description: "Lower-case the query.", default: "`false`" },
    required: { spec: boolean, description: "Block calls without the field.", default: "`true`" },
    tools,
    priority,
  },
  { refine: ordered("minLength", "maxLength", 1, Number.POSITIVE_INFINITY) },
);

const validate = object({
  safePath: {
    spec: safePath,
    description: "Paths in the input must stay under a root (`safePath()`).",
    default: "none",
  },
  query: { spec: query, description: "Sanitise and bound a query string (`queryRules()`).", default: "none" },
  requireSchema: {
    spec: boolean,
    description: "Block tools that have no schema (schemas are given in code, to `loadPolicy`).",
    default: "`false`",
  },
  writeBack: { spec: boolean, description: "Write the validated value back into the input.", default: "`true`" },
  maxIssues: { spec: integer(1), description: "How many issues the reason lists.", default: "`5`" },
  priority,
});

const rateLimit = object(
  {
    max: { spec: integer(1), description: "Calls allowed per window.", required: true },
    per: { spec: duration, description: "The window (`1m`, `10s`, or milliseconds).", required: true },
    key: {
      spec: oneOf([
        "tool",
        "agent",
        "global",
        "tool+agent",
        "caller",
        "tool+caller",
        "upstream",
        "tool+upstream",
        "caller+upstream",
      ]),
      description:
        "What calls are counted under (`caller` and `upstream`: what `loadPolicy`'s `caller` and `upstream` options answer).",
      default: "`tool`",
    },
    algorithm: {
      spec: oneOf(["sliding-window", "token-bucket"]),
      description: "How calls are counted.",
      default: "`sliding-window`",
    },
    store,
    keyPrefix: { spec: { kind: "string", maxLength: 1024 }, description: "Prepended to every key.", default: '`""`' },
    message,
    tools,
    priority,
  },
  { aliases: { windowMs: "per", window: "per", limit: "max" } },
);

const cache = object(
  {
    ttl: { spec: duration, description: "How long a result is served.", default: "`5m`" },
    maxEntries: { spec: integer(1), description: "Size of the in-memory store.", default: "`1000`" },
    scope: { spec: oneOf(["global", "agent", "crew"]), description: "Who shares results.", default: "`global`" },
    dedupe: { spec: boolean, description: "Identical calls in flight share one run.", default: "`true`" },
    store,
    tools,
    priority,
  },
  { aliases: { ttlMs: "ttl", maxSize: "maxEntries" } },
);

const loopGuard = object(
  {
    maxRepeats: {
      spec: choice([integer(2), { kind: "const", value: false }], "a whole number ≥ 2 or false"),
      description: "The same call this many times in a row triggers; `false` turns it off.",
      default: "`5`",
    },
    maxInWindow: {
      spec: integer(2),
      description: "The same call this many times within `windowMs` triggers.",
      default: "off",
    },
    windowMs: { spec: duration, description: "The window of `maxInWindow`.", default: "`1m`" },
    sameInput: {
      spec: boolean,
      description: "Count only calls with the same input as the same call.",
      default: "`false`",
    },
    scope: {
      spec: oneOf(["agent", "crew", "global", "caller", "upstream", "caller+upstream"]),
      description:
        "Whose calls are counted together (`caller` and `upstream`: what `loadPolicy`'s `caller` and `upstream` options answer).",
      default: "`agent`",
    },
    action: {
      spec: oneOf(["warn", "block"]),
      description: "Let a looping call run with a warning, or block it.",
      default: "`warn`",
    },
    message,
    historySize: { spec: integer(1), description: "Calls kept per scope for `history()`.", default: "`50`" },
    store,
    tools,
    priority,
  },
  {
    aliases: { window: "windowMs", maxCalls: "maxInWindow" },
    refine: (guard) => {
      if (guard.maxInWindow !== undefined) return [];
      if (guard.maxRepeats === false) {
        return [
          { key: "maxRepeats", message: "with `maxRepeats: false`, set `maxInWindow`, or the guard checks nothing" },
        ];
      }
      return guard.windowMs === undefined
        ? []
        : [{ key: "windowMs", message: "`windowMs` only applies with `maxInWindow`" }];
    },
    schemaExtra: {
      allOf: [
        {
          anyOf: [
            { not: { required: ["maxRepeats"], properties: { maxRepeats: { const: false } } } },
            { required: ["maxInWindow"] },
          ],
        },
        { anyOf: [{ not: { required: ["windowMs"] } }, { required: ["maxInWindow"] }] },
      ],
    },
  },
);

const timeout = object({
  ms: {
    spec: choice(
      [
        duration,
        object(
          {
            default: { spec: duration, description: "The limit of tools not in `perTool`.", default: "none" },
            perTool: {
              spec: { kind: "record", values: duration, keyNoun: "tool name" },
              description: "A limit per tool name.",
              default: "none",
            },
          },
          {
            refine: (ms, failed) =>
              failed.size === 0 &&
              ms.default === undefined &&
              Object.keys((ms.perTool as object | undefined) ?? {}).length === 0
                ? [{ message: "`ms` needs a `default` or at least one `perTool` limit" }]
                : [],
            schemaExtra: {
              anyOf: [
                { required: ["default"] },
                { required: ["perTool"], properties: { perTool: { type: "object", minProperties: 1 } } },
              ],
            },
          },
        ),
      ],
      "a duration or { default, perTool }",
    ),
    description: "How long a tool may run: one duration, or `{ default, perTool: { tool: duration } }`.",
    required: true,
  },
  message,
  tools,
});

const retry = object(
  {
    retries: { spec: integer(0, 100), description: "Retries after the first attempt.", default: "`2`" },
    minDelayMs: { spec: durationOrZero, description: "The pause before the first retry.", default: "`200`" },
    maxDelayMs: { spec: durationOrZero, description: "The longest pause.", default: "`5000`" },
    factor: {
      spec: number({ minimum: 1 }),
      description: "Each pause is this many times the previous one.",
      default: "`2`",
    },
    jitter: {
      spec: choice([oneOf(["full", "none"]), number({ minimum: 0, maximum: 1 })], "full, none or a number in [0, 1]"),
      description: "`full`, `none`, or a number in [0, 1].",
      default: "`full`",
    },
    tools,
  },
  { refine: ordered("minDelayMs", "maxDelayMs", 200, 5000) },
);

const circuitBreaker = object({
  failureThreshold: { spec: integer(1), description: "Consecutive failures that open the circuit.", default: "`5`" },
  cooldownMs: {
    spec: durationOrZero,
    description: "How long an open circuit refuses before trials.",
    default: "`30s`",
  },
  halfOpenMax: { spec: integer(1), description: "Trial calls allowed at once while half-open.", default: "`1`" },
  key: {
    spec: oneOf(["tool"]),
    description: "One circuit per tool (other keys are functions, in code).",
    default: "`tool`",
  },
  message,
  store,
  tools,
});

const audit = object(
  {
    file: {
      spec: string({ maxLength: 4096 }),
      description: "The JSON Lines file to append to (relative to the policy file).",
      required: true,
    },
    durability: {
      spec: oneOf(["fsync", "write"]),
      description: "`fsync` survives a power loss; `write` a killed process.",
      default: "`fsync`",
    },
    maxBytes: { spec: integer(1), description: "Rotate when the file would pass this many bytes.", default: "64 MiB" },
    maxInput: { spec: integer(1), description: "Characters of input JSON kept.", default: "`4000`" },
    maxResult: {
      spec: integer(1),
      description: "Characters kept of the result, task, reasons and error.",
      default: "`1000`",
    },
    onError: {
      spec: oneOf(["block", "continue"]),
      description: "What a failed write does to the call.",
      default: "`block`",
    },
    tools,
    priority,
  },
  { aliases: { path: "file", filename: "file" } },
);

const pack = (spec: ObjectSpec, what: string): Field => ({ spec, description: what, default: "not attached" });

/** The `packs` of a rule: pack name → its options as data. */
export const packsSpec = object({
  redact: pack(redact, "Redact secrets, e-mails and card numbers from results (`@toolware/packs/redact`)."),
  validate: pack(validate, "Check inputs: paths under a root, query strings (`@toolware/packs/validate`)."),
  "rate-limit": pack(rateLimit, "Limit calls per window (`@toolware/packs/rate-limit`)."),
  cache: pack(cache, "Serve identical calls from a cache (`@toolware/packs/cache`)."),
  "loop-guard": pack(loopGuard, "Warn about or block an agent repeating a call (`@toolware/packs/loop-guard`)."),
  timeout: pack(timeout, "Bound how long a tool runs (`@toolware/packs/timeout`)."),
  retry: pack(retry, "Retry failing tools with backoff (`@toolware/packs/retry`)."),
  "circuit-breaker": pack(
    circuitBreaker,
    "Stop calling a failing tool for a while (`@toolware/packs/circuit-breaker`).",
  ),
  audit: pack(audit, "Append one line per call to a crash-safe audit file (`@toolware/packs/audit`)."),
});
