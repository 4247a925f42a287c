import { Agent, Crew, Task } from "./entities.js";
import { ToolwareTypeError } from "./errors.js";
import { checkKeys, describeValue, isPlainObject, type KeyHints, showValue, unknownKeyMessage } from "./keys.js";
import type { CallBindings, ExplainQuery } from "./tool-hooks.js";

/** The API a call came through, so that its errors name what the user called. */
export type CallSite = "invoke" | "wrap";

const BINDING_KEYS = ["agent", "task", "crew", "signal"];
const BINDING_HINTS: KeyHints = {
  abortSignal: "did you mean `signal`? (the AI SDK calls it abortSignal)",
  role: "bind the agent, not its role: { agent: new Agent({ role }) }",
  agents: "a call is bound to one agent: { agent }",
  tasks: "a call is bound to one task: { task }",
};

// `instanceof` runs a Proxy's getPrototypeOf trap, which may throw: such a value is simply not one.
function isA(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

function invalid(where: CallSite, message: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_BINDINGS", `${where}(): ${message}`);
}

function notAnObject(where: CallSite, value: unknown): ToolwareTypeError {
  const hint = isA(value, Agent)
    ? "; pass the agent as { agent }"
    : isA(value, Crew)
      ? "; pass the crew as { crew }"
      : isA(value, Task)
        ? "; pass the task as { task }"
        : isA(value, AbortSignal)
          ? "; pass the signal as { signal }"
          : isA(value, AbortController)
            ? "; pass its signal as { signal: controller.signal }"
            : "";
  return invalid(
    where,
    `the bindings must be a plain object { agent?, task?, crew?, signal? }, got ${describeValue(value)}${hint}`,
  );
}

function wrongType(where: CallSite, key: string, value: unknown, expected: string): ToolwareTypeError {
  return invalid(where, `bindings.${key} must be ${expected}, got ${showValue(value)}`);
}

/**
 * Reads and checks call bindings: a plain object with no key but `agent`, `task`, `crew` and
 * `signal`, each of its type or undefined. Each value is read once, so a getter cannot show
 * the check one agent and the call another. Costs no allocation but the returned object.
 */
export function readBindings(bindings: unknown, where: CallSite): CallBindings {
  if (bindings === null || typeof bindings !== "object") throw notAnObject(where, bindings);
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(bindings);
  } catch {
    throw notAnObject(where, bindings);
  }
  if (proto !== Object.prototype && proto !== null) throw notAnObject(where, bindings);
  const b = bindings as Record<string, unknown>;
  let agent: unknown;
  let task: unknown;
  let crew: unknown;
  let signal: unknown;
  // for…in over a plain object walks V8's enum cache: no array of keys per call, unlike Object.keys.
  for (const key in b) {
    if (key === "agent") agent = b.agent;
    else if (key === "crew") crew = b.crew;
    else if (key === "task") task = b.task;
    else if (key === "signal") signal = b.signal;
    // An enumerable key on Object.prototype (a polluted prototype) is nobody's typo.
    else if (Object.hasOwn(b, key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `${where}(): ${unknownKeyMessage("binding", key, BINDING_KEYS, BINDING_HINTS)}`,
      );
    }
  }
  if (agent !== undefined && !isA(agent, Agent))
    throw wrongType(where, "agent", agent, "an Agent (new Agent({ role }))");
  if (crew !== undefined && !isA(crew, Crew))
    throw wrongType(where, "crew", crew, "a Crew (new Crew({ agents, tasks }))");
  if (task !== undefined && !isA(task, Task))
    throw wrongType(where, "task", task, "a Task (new Task({ description }))");
  if (signal !== undefined && !isA(signal, AbortSignal)) {
    throw wrongType(where, "signal", signal, "an AbortSignal (controller.signal)");
  }
  return { agent, task, crew, signal } as CallBindings;
}

/**
 * The signal given to a wrapped tool's `execute(input, options?)`, if any. Other keys are
 * the calling framework's own (a `callId`, the AI SDK's `toolCallId` and `messages`) and are
 * ignored; the AI SDK's `abortSignal` is honoured like `signal`.
 */
export function executeSignal(options: unknown): AbortSignal | undefined {
  if (options === undefined) return undefined;
  if (options === null || typeof options !== "object") {
    throw invalid("wrap", `execute(input, options?) takes an options object { signal? }, got ${showValue(options)}`);
  }
  const { signal, abortSignal } = options as { signal?: unknown; abortSignal?: unknown };
  for (const [key, value] of [
    ["signal", signal],
    ["abortSignal", abortSignal],
  ] as const) {
    if (value !== undefined && !isA(value, AbortSignal)) {
      throw invalid("wrap", `the \`${key}\` option of execute() must be an AbortSignal, got ${showValue(value)}`);
    }
  }
  return (signal ?? abortSignal) as AbortSignal | undefined;
}

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
  if (query.agent !== undefined && !isA(query.agent, Agent)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "explain(): `agent` must be an Agent");
  }
  if (query.crew !== undefined && !isA(query.crew, Crew)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "explain(): `crew` must be a Crew");
  }
}
