import type { CallSite, ExplainQuery } from "./call-args.js";
import { isA } from "./call-args.js";
import { Agent, Crew } from "./entities.js";
import { ToolwareTypeError } from "./errors.js";
import { checkKeys, describeValue, isPlainObject, showValue } from "./keys.js";

// The checks of what a call runs on besides its bindings: the tool's input, and explain()'s query.

function inputHint(input: object): string {
  if (Array.isArray(input)) return "; put the list in a field: { items: [ … ] }";
  if (isA(input, Map)) return "; pass Object.fromEntries(map)";
  return "; pass its fields in a plain object ({ ...value })";
}

/** The input a tool receives: `{}` for undefined, else a plain object (a prototype of Object.prototype or null). */
export function checkInput(toolName: string, input: unknown, where: CallSite): object {
  if (input === undefined) return {};
  if (input === null || typeof input !== "object") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_INPUT",
      `${where}(): the input of tool ${toolName} must be an object, got ${input === null ? "null" : typeof input}`,
    );
  }
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(input);
  } catch (error) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_INPUT",
      `${where}(): the input of tool ${toolName} cannot be inspected (its getPrototypeOf trap threw)`,
      { cause: error },
    );
  }
  if (proto === Object.prototype || proto === null) return input;
  throw new ToolwareTypeError(
    "TOOLWARE_INVALID_INPUT",
    `${where}(): the input of tool ${toolName} must be a plain object ({ … } or Object.create(null)), ` +
      `got ${describeValue(input)}${inputHint(input)}`,
  );
}

const EXPLAIN_KEYS = ["toolName", "agent", "crew"];

/** Checks what `explain()` takes: `{ toolName, agent?, crew? }`. */
export function checkExplainQuery(query: unknown): asserts query is ExplainQuery {
  if (!isPlainObject(query) || typeof query.toolName !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      `explain() takes { toolName, agent?, crew? }, got ${showValue(query)}`,
    );
  }
  checkKeys(query, EXPLAIN_KEYS, "explain() key");
  if (query.agent !== undefined && !Agent._is(query.agent)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "explain(): `agent` must be an Agent");
  }
  if (query.crew !== undefined && !Crew._is(query.crew)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "explain(): `crew` must be a Crew");
  }
}
