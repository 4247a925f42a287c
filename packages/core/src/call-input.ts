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

function badQuery(message: string, cause?: unknown): ToolwareTypeError {
  return new ToolwareTypeError(
    "TOOLWARE_INVALID_ARGUMENT",
    `explain() ${message}`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Checks what `explain()` takes, `{ toolName, agent?, crew? }`, and returns a frozen copy: each key is read
 * once, so a getter cannot show the check one value and the lookup another.
 */
export function checkExplainQuery(query: unknown): Readonly<ExplainQuery> {
  if (!isPlainObject(query)) throw badQuery(`takes { toolName, agent?, crew? }, got ${showValue(query)}`);
  let toolName: unknown;
  let agent: unknown;
  let crew: unknown;
  try {
    checkKeys(query, EXPLAIN_KEYS, "explain() key");
    ({ toolName, agent, crew } = query);
  } catch (error) {
    if (error instanceof ToolwareTypeError) throw error;
    throw badQuery("got a query whose keys cannot be read (a getter or Proxy trap threw)", error);
  }
  if (typeof toolName !== "string") throw badQuery(`takes { toolName, agent?, crew? }, got ${showValue(query)}`);
  if (agent !== undefined && !Agent._is(agent)) throw badQuery("`agent` must be an Agent");
  if (crew !== undefined && !Crew._is(crew)) throw badQuery("`crew` must be a Crew");
  return Object.freeze({ toolName, agent: agent as Agent | undefined, crew: crew as Crew | undefined });
}
