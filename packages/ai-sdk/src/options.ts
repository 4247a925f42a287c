import { ToolwareTypeError } from "@toolware/core";
import type { AiSdkToolInfo, GuardToolsOptions } from "./types.js";

const OPTION_KEYS = ["bind", "onOutcome", "unguardable", "nativeApproval", "tools"];
const INFO_KEYS = new Set(["destructive", "tags"]);

function invalidOption(message: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `guardTools(): ${message}`);
}

/**
 * Checks the `tools` option against the set: a name that is not one of the set's tools is refused,
 * since metadata meant for a misspelt tool would leave the real one untagged and a guard off.
 */
function checkToolInfo(tools: unknown, names: readonly string[]): Readonly<Record<string, AiSdkToolInfo>> {
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw invalidOption("`tools` must be an object keyed by tool name: { delete_file: { destructive: true } }");
  }
  const checked: Record<string, AiSdkToolInfo> = Object.create(null);
  for (const [name, info] of Object.entries(tools)) {
    if (!names.includes(name)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `guardTools(): \`tools\` names ${JSON.stringify(name)}, which is not a tool of the set ` +
          `(its tools: ${names.length === 0 ? "none" : names.join(", ")})`,
      );
    }
    if (info === null || typeof info !== "object" || Array.isArray(info)) {
      throw invalidOption(`\`tools.${name}\` must be { destructive?, tags? }`);
    }
    for (const key of Object.keys(info)) {
      if (!INFO_KEYS.has(key)) {
        throw new ToolwareTypeError(
          "TOOLWARE_UNKNOWN_OPTION",
          `guardTools(): unknown key \`tools.${name}.${key}\` (allowed: destructive, tags)`,
        );
      }
    }
    const { destructive, tags } = info as { destructive?: unknown; tags?: unknown };
    // Guardrails match on `destructive === true`: "yes" must not quietly mean false.
    if (destructive !== undefined && typeof destructive !== "boolean") {
      throw invalidOption(`\`tools.${name}.destructive\` must be true or false`);
    }
    if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string" || t === ""))) {
      throw invalidOption(`\`tools.${name}.tags\` must be an array of non-empty strings`);
    }
    checked[name] = Object.freeze({
      ...(destructive === undefined ? {} : { destructive }),
      ...(tags === undefined ? {} : { tags: Object.freeze([...(tags as string[])]) }),
    });
  }
  return checked;
}

/** Checks guardTools()'s options eagerly against the set's tool names: a typo must never switch a guard off. @internal */
export function checkOptions(options: unknown, names: readonly string[]): GuardToolsOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalidOption(`the options must be an object { ${OPTION_KEYS.map((k) => `${k}?`).join(", ")} }`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `guardTools(): unknown option ${JSON.stringify(key)}; the options are ${OPTION_KEYS.join(", ")}`,
      );
    }
  }
  const o = options as GuardToolsOptions;
  for (const name of ["bind", "onOutcome"] as const) {
    if (o[name] !== undefined && typeof o[name] !== "function") throw invalidOption(`\`${name}\` must be a function`);
  }
  if (o.unguardable !== undefined && o.unguardable !== "throw" && typeof o.unguardable !== "function") {
    throw invalidOption('`unguardable` must be "throw" or a function that accepts each unguardable tool');
  }
  if (o.nativeApproval !== undefined && typeof o.nativeApproval !== "boolean") {
    throw invalidOption("`nativeApproval` must be true or false");
  }
  return { ...o, tools: o.tools === undefined ? {} : checkToolInfo(o.tools, names) };
}
