import { closestKey, type ToolwareError, ToolwareTypeError } from "@toolware/core";

const KEYS = ["bind", "onOutcome", "tools"] as const;
const TOOL_KEYS = ["destructive", "tags"] as const;

const invalid = (message: string): ToolwareError =>
  new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `mastraToolware(): ${message}`);

function unknownKey(where: string, key: string, allowed: readonly string[]): ToolwareError {
  const near = closestKey(key, allowed);
  const hint = near === undefined ? "" : ` (did you mean \`${near}\`?)`;
  return new ToolwareTypeError(
    "TOOLWARE_UNKNOWN_OPTION",
    `mastraToolware(): unknown key \`${where}${key}\`${hint}; allowed: ${allowed.join(", ")}`,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

function checkTool(name: string, info: unknown): void {
  if (!isRecord(info)) throw invalid(`\`tools.${name}\` must be { destructive?, tags? }`);
  for (const key of Object.keys(info)) {
    if (!(TOOL_KEYS as readonly string[]).includes(key)) throw unknownKey(`tools.${name}.`, key, TOOL_KEYS);
  }
  if (info.destructive !== undefined && typeof info.destructive !== "boolean") {
    throw invalid(`\`tools.${name}.destructive\` must be a boolean`);
  }
  const tags = info.tags;
  if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string" || t === ""))) {
    throw invalid(`\`tools.${name}.tags\` must be an array of non-empty strings`);
  }
}

/** Checks mastraToolware()'s options eagerly and copies them: a typo must never switch a guard off. @internal */
export function checkOptions<T extends object>(options: unknown): T {
  if (!isRecord(options)) throw invalid("the options must be an object");
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(options)) {
    if (!(KEYS as readonly string[]).includes(key)) throw unknownKey("", key, KEYS);
    copy[key] = options[key];
  }
  if (copy.bind !== undefined && typeof copy.bind !== "function") throw invalid("`bind` must be a function");
  if (copy.onOutcome !== undefined && typeof copy.onOutcome !== "function") {
    throw invalid("`onOutcome` must be a function");
  }
  if (copy.tools !== undefined) {
    if (!isRecord(copy.tools)) throw invalid("`tools` must be an object keyed by tool name: { send: { tags: [] } }");
    for (const [name, info] of Object.entries(copy.tools)) checkTool(name, info);
  }
  return copy as T;
}
