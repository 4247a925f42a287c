import { describe, packOptionError } from "../internal/tool-match.js";
import type { GuardrailsOptions, GuardrailsQuery } from "./index.js";
import { checkKeys, isOptionsObject } from "./policy.js";

const PREFIX = "toolware/guardrails";
const OPTION_KEYS = ["deny", "allow", "warn", "byRole", "rules", "onWarn", "message", "unmatchableNames", "priority"];
export function checkOptions(options: GuardrailsOptions): void {
  if (!isOptionsObject(options)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: guardrails() takes an options object { deny?, allow?, warn?, byRole?, rules? }, got ${describe(options)}`,
    );
  }
  checkKeys(options, OPTION_KEYS, PREFIX);
  const { onWarn, message, unmatchableNames, priority } = options;
  if (onWarn !== undefined && typeof onWarn !== "function") {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`onWarn\` must be a function, got ${describe(onWarn)}`,
    );
  }
  if (
    message !== undefined &&
    typeof message !== "function" &&
    (typeof message !== "string" || message.trim() === "")
  ) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`message\` must be a non-empty string or a function, got ${describe(message)}`,
    );
  }
  if (unmatchableNames !== undefined && unmatchableNames !== "block" && unmatchableNames !== "allow") {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`unmatchableNames\` must be "block" or "allow", got ${describe(unmatchableNames)}`,
    );
  }
  if (priority !== undefined && !Number.isFinite(priority)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`priority\` must be a finite number, got ${describe(priority)}`,
    );
  }
}

const QUERY_KEYS = ["toolName", "tags", "destructive", "role"];

/** check() decides for a tool that is not running: a typo there would answer for the wrong tool or role. */
export function checkQuery(query: GuardrailsQuery): void {
  const usage = "check() takes { toolName, tags?, destructive?, role? }";
  if (!isOptionsObject(query)) {
    throw packOptionError("TOOLWARE_INVALID_ARGUMENT", `${PREFIX}: ${usage}, got ${describe(query)}`);
  }
  for (const key of Object.keys(query)) {
    if (QUERY_KEYS.includes(key)) continue;
    const hint = key === "agent" ? "pass `role: agent.role`" : key === "name" ? "did you mean `toolName`?" : usage;
    const label = /^[\w$]{1,64}$/.test(key) ? `\`${key}\`` : JSON.stringify(key.slice(0, 64));
    throw packOptionError("TOOLWARE_UNKNOWN_OPTION", `${PREFIX}: check(): unknown key ${label} (${hint})`);
  }
  const { toolName, tags, destructive, role } = query;
  const wrong =
    typeof toolName !== "string"
      ? `\`toolName\` must be a string, got ${describe(toolName)}`
      : tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))
        ? `\`tags\` must be an array of strings, got ${describe(tags)}`
        : destructive !== undefined && typeof destructive !== "boolean"
          ? `\`destructive\` must be a boolean, got ${describe(destructive)}`
          : role !== undefined && typeof role !== "string"
            ? `\`role\` must be a string, got ${describe(role)}`
            : undefined;
  if (wrong !== undefined) throw packOptionError("TOOLWARE_INVALID_ARGUMENT", `${PREFIX}: check(): ${wrong}`);
}
