import { messageOf, ToolwareError } from "./errors.js";
import type { Tool } from "./types.js";

/**
 * Turns a tool's return value into the agent-facing string: strings as they
 * are, else the tool's `formatResult`, else compact JSON (`undefined` → `""`,
 * BigInts as their digits). Throws a `ToolwareError` when it cannot:
 * `TOOLWARE_FORMAT_RESULT_FAILED` when `formatResult` throws or returns
 * something else than a string, `TOOLWARE_UNSERIALIZABLE_RESULT` when the
 * value has no JSON form (a cycle, a throwing `toJSON` or getter).
 */
export function formatToolResult<O>(tool: Tool<never, O>, raw: O): string {
  if (typeof raw === "string") return raw;
  if (tool.formatResult === undefined) return raw === undefined ? "" : toJson(tool, raw);
  let text: unknown;
  try {
    text = tool.formatResult(raw);
  } catch (error) {
    throw new ToolwareError(
      "TOOLWARE_FORMAT_RESULT_FAILED",
      `formatResult of tool ${tool.name} failed: ${messageOf(error)}`,
      { cause: error },
    );
  }
  if (typeof text === "string") return text;
  throw new ToolwareError(
    "TOOLWARE_FORMAT_RESULT_FAILED",
    `formatResult of tool ${tool.name} returned ${text === null ? "null" : typeof text} instead of a string`,
  );
}

function toJson(tool: Tool<never, unknown>, raw: unknown): string {
  try {
    const json = JSON.stringify(raw, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    return json === undefined ? String(raw) : json;
  } catch (error) {
    throw new ToolwareError(
      "TOOLWARE_UNSERIALIZABLE_RESULT",
      `the result of tool ${tool.name} cannot be serialised: ${messageOf(error)}`,
      { cause: error },
    );
  }
}
