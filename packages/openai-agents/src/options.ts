import { Agent } from "@openai/agents";
import { ToolwareTypeError } from "@toolware/core";
import type { GuardAgentOptions } from "./guard.js";

const KEYS = ["bind", "onOutcome", "tools", "agents"];
const invalid = (message: string) => new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `guardAgent(): ${message}`);

function checkTools(tools: unknown): void {
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw invalid("`tools` must be an object keyed by tool name: { delete_file: { destructive: true } }");
  }
  for (const [name, info] of Object.entries(tools)) {
    if (info === null || typeof info !== "object" || Array.isArray(info)) {
      throw invalid(`\`tools.${name}\` must be { destructive?, tags? }`);
    }
    for (const key of Object.keys(info)) {
      if (key !== "destructive" && key !== "tags") {
        throw new ToolwareTypeError(
          "TOOLWARE_UNKNOWN_OPTION",
          `guardAgent(): unknown key \`tools.${name}.${key}\` (allowed: destructive, tags)`,
        );
      }
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

/** Checks guardAgent()'s options eagerly: a typo must never switch a guard off. @internal */
export function checkOptions<T>(options: GuardAgentOptions<T>): GuardAgentOptions<T> {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid("the options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!KEYS.includes(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `guardAgent(): unknown option \`${key}\` (allowed: ${KEYS.join(", ")})`,
      );
    }
  }
  const { bind, onOutcome, tools, agents } = options;
  if (bind !== undefined && typeof bind !== "function") throw invalid("`bind` must be a function");
  if (onOutcome !== undefined && typeof onOutcome !== "function") throw invalid("`onOutcome` must be a function");
  if (tools !== undefined) checkTools(tools);
  if (agents !== undefined && (!Array.isArray(agents) || agents.some((a) => !(a instanceof Agent)))) {
    throw invalid("`agents` must be an array of Agents (those used as tools with agent.asTool())");
  }
  return options;
}
