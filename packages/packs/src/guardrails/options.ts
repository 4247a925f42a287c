import { packTypeError, shown } from "../internal/errors.js";
import { checkFunction, checkKeys, checkMessage, checkOptionsObject, checkPriority } from "../internal/options.js";
import type { GuardrailsOptions, GuardrailsQuery } from "./index.js";
import { LIST_ALIASES } from "./policy.js";

const PREFIX = "toolware/guardrails";
const OPTION_KEYS = ["deny", "allow", "warn", "byRole", "rules", "onWarn", "message", "unmatchableNames", "priority"];
export function checkOptions(options: GuardrailsOptions): void {
  checkOptionsObject(
    options,
    `${PREFIX}: guardrails() takes an options object { deny?, allow?, warn?, byRole?, rules? }`,
  );
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: LIST_ALIASES });
  const { onWarn, message, unmatchableNames, priority } = options;
  checkFunction(onWarn, "onWarn", PREFIX);
  checkMessage(message, PREFIX);
  if (unmatchableNames !== undefined && unmatchableNames !== "block" && unmatchableNames !== "allow") {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`unmatchableNames\` must be "block" or "allow", got ${shown(unmatchableNames)}`,
    );
  }
  checkPriority(priority, PREFIX);
}

const QUERY_KEYS = ["toolName", "tags", "destructive", "role"];

/** check() decides for a tool that is not running: a typo there would answer for the wrong tool or role. */
export function checkQuery(query: GuardrailsQuery): void {
  if (query === null || typeof query !== "object" || Array.isArray(query)) {
    const usage = "check() takes { toolName, tags?, destructive?, role? }";
    throw packTypeError("TOOLWARE_INVALID_ARGUMENT", `${PREFIX}: ${usage}, got ${shown(query)}`);
  }
  // `agent` is what invoke() takes; here the role itself is asked for.
  checkKeys(query, QUERY_KEYS, `${PREFIX}: check()`, {
    what: "unknown key",
    aliases: { agent: "role", name: "toolName" },
  });
  const { toolName, tags, destructive, role } = query;
  const wrong =
    typeof toolName !== "string"
      ? `\`toolName\` must be a string, got ${shown(toolName)}`
      : tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))
        ? `\`tags\` must be an array of strings, got ${shown(tags)}`
        : destructive !== undefined && typeof destructive !== "boolean"
          ? `\`destructive\` must be a boolean, got ${shown(destructive)}`
          : role !== undefined && typeof role !== "string"
            ? `\`role\` must be a string, got ${shown(role)}`
            : undefined;
  if (wrong !== undefined) throw packTypeError("TOOLWARE_INVALID_ARGUMENT", `${PREFIX}: check(): ${wrong}`);
}
