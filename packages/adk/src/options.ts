import { closestKey, ToolwareTypeError } from "@toolware/core";
import type { ToolwarePluginOptions } from "./plugin.js";

const KEYS = ["bind", "onOutcome", "tools", "name"];
const invalid = (message: string) => new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `toolwarePlugin(): ${message}`);

function unknownKey(key: string, allowed: readonly string[], where: string): ToolwareTypeError {
  const near = closestKey(key, allowed);
  return new ToolwareTypeError(
    "TOOLWARE_UNKNOWN_OPTION",
    `toolwarePlugin(): unknown ${where} \`${key}\`${near === undefined ? "" : ` (did you mean \`${near}\`?)`} (allowed: ${allowed.join(", ")})`,
  );
}

function checkTools(tools: unknown): void {
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw invalid("`tools` must be an object keyed by tool name: { delete_file: { destructive: true } }");
  }
  for (const [name, info] of Object.entries(tools)) {
    if (info === null || typeof info !== "object" || Array.isArray(info)) {
      throw invalid(`\`tools.${name}\` must be { destructive?, tags? }`);
    }
    for (const key of Object.keys(info)) {
      if (key !== "destructive" && key !== "tags")
        throw unknownKey(`tools.${name}.${key}`, ["destructive", "tags"], "key");
    }
    const { destructive, tags } = info as { destructive?: unknown; tags?: unknown };
    if (destructive !== undefined && typeof destructive !== "boolean") {
      throw invalid(`\`tools.${name}.destructive\` must be a boolean`);
    }
    if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string" || t === ""))) {
      throw invalid(`\`tools.${name}.tags\` must be an array of non-empty strings`);
    }
  }
}

/** Checks toolwarePlugin()'s options eagerly: a typo must never switch a guard off. @internal */
export function checkOptions(options: unknown): ToolwarePluginOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid("the options must be an object");
  }
  for (const key of Object.keys(options)) if (!KEYS.includes(key)) throw unknownKey(key, KEYS, "option");
  const { bind, onOutcome, tools, name } = options as Record<string, unknown>;
  if (bind !== undefined && typeof bind !== "function") throw invalid("`bind` must be a function");
  if (onOutcome !== undefined && typeof onOutcome !== "function") throw invalid("`onOutcome` must be a function");
  if (name !== undefined && (typeof name !== "string" || name.trim() === "")) {
    throw invalid("`name` must be a non-empty string");
  }
  if (tools !== undefined) checkTools(tools);
  return options as ToolwarePluginOptions;
}
