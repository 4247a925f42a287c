import { Agent, Crew, Task } from "./entities.js";
import { messageOf, ToolwareTypeError, toolwareCode } from "./errors.js";
import { describeValue, isPlainObject, type KeyHints, showValue, unknownKeyMessage } from "./keys.js";
import type { FrameworkCall } from "./types.js";

/** Who makes a call: all optional. */
export interface CallBindings {
  agent?: Agent | undefined;
  task?: Task | undefined;
  crew?: Crew | undefined;
  /** Cancels the call: the tool receives the call's own signal, which aborts with this one's reason (and with any a hook links). */
  signal?: AbortSignal | undefined;
  /**
   * The framework's own id of this call (the AI SDK's `toolCallId`, MCP's `requestId`): it becomes
   * `ctx.callId`, `outcome.callId` and the id the tool receives. A non-empty string of at most 256
   * printable characters; `invoke` only (every call of a wrapped tool has its own). Default: a fresh id.
   */
  callId?: string | undefined;
  /** The framework's own context of this call, read by hooks as `ctx.framework`; set by adapters. */
  framework?: FrameworkCall | undefined;
}

/** A call's place in the cache: what `explain` takes. */
export interface ExplainQuery {
  toolName: string;
  agent?: Agent;
  crew?: Crew;
}

/** The API a call came through, so that its errors name what the user called. */
export type CallSite = "invoke" | "wrap";

const BINDING_KEYS = ["agent", "task", "crew", "signal", "callId", "framework"];
const BINDING_HINTS: KeyHints = {
  abortSignal: "did you mean `signal`? (the AI SDK calls it abortSignal)",
  toolCallId: "did you mean `callId`? (the AI SDK calls it toolCallId)",
  id: "did you mean `callId`?",
  context: "the framework's own context goes in { framework: { name, context } }",
  role: "bind the agent, not its role: { agent: new Agent({ role }) }",
  agents: "a call is bound to one agent: { agent }",
  tasks: "a call is bound to one task: { task }",
};

// `instanceof` runs a Proxy's getPrototypeOf trap, which may throw: such a value is simply not one. @internal
export function isA(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

// By brand, not instanceof, which passes a Proxy of one: its traps would run (throw, lie) inside the call.
const isAgent = (value: unknown): boolean => Agent._is(value);
const isCrew = (value: unknown): boolean => Crew._is(value);

// The same checks on the hot path, one `instanceof` site per class: each stays monomorphic.

function isTask(value: unknown): boolean {
  try {
    return value instanceof Task;
  } catch {
    return false;
  }
}

function isSignal(value: unknown): boolean {
  try {
    // The call reads `aborted`: a signal whose read throws (a Proxy's trap) would make invoke reject with it.
    return value instanceof AbortSignal && typeof (value as AbortSignal).aborted === "boolean";
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
    `the bindings must be a plain object { agent?, task?, crew?, signal?, callId?, framework? }, got ${describeValue(value)}${hint}`,
  );
}

function wrongType(where: CallSite, key: string, value: unknown, expected: string): ToolwareTypeError {
  return invalid(where, `bindings.${key} must be ${expected}, got ${showValue(value)}`);
}

// A Proxy of an agent (or an object made with Object.create(agent)) looks like one to instanceof: say what it is.
function notBranded(
  where: CallSite,
  key: string,
  value: unknown,
  type: typeof Agent | typeof Crew,
  expected: string,
): ToolwareTypeError {
  if (!isA(value, type)) return wrongType(where, key, value, expected);
  return invalid(
    where,
    `bindings.${key} must be ${expected} itself, got a Proxy of one or an object made from one (Object.create); pass the ${key} itself`,
  );
}

// A getter or Proxy trap that throws while the bindings are read: the caller gets the code of bindings toolware
// cannot use, with the thrown value as the cause, not that value bare. (A try inside readBindings costs nothing
// until something throws; a wrapper function would be one more call per call.)
function unreadable(where: CallSite, error: unknown): unknown {
  if (toolwareCode(error) !== undefined) return error;
  return new ToolwareTypeError(
    "TOOLWARE_INVALID_BINDINGS",
    `${where}(): the bindings could not be read (${messageOf(error)}); pass plain values, not getters or Proxies that throw`,
    { cause: error },
  );
}

/**
 * Reads and checks call bindings: a plain object with no key but `agent`, `task`, `crew`,
 * `signal`, `callId` and `framework`, each of its type or undefined; only its own keys count. Each
 * value is read once, so a getter cannot show the check one agent and the call another. Returns the
 * values in an object of their own, written only once every check has passed (after the last getter
 * or trap ran). @internal
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
  let callId: unknown;
  let framework: unknown;
  let call: FrameworkCall | undefined;
  try {
    // for…in over a plain object walks V8's enum cache: no array of keys per call, unlike Object.keys.
    for (const key in b) {
      // Only own keys bind: an enumerable key on Object.prototype (a polluted prototype) is nobody's
      // binding, nor a typo. Inside for…in, the optimiser answers hasOwnProperty from the enum cache for
      // free, where Object.hasOwn costs ~200 instructions a call (valgrind).
      // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is not optimised inside for…in
      if (!Object.prototype.hasOwnProperty.call(b, key)) continue;
      if (key === "agent") agent = b.agent;
      else if (key === "crew") crew = b.crew;
      else if (key === "task") task = b.task;
      else if (key === "signal") signal = b.signal;
      else if (key === "callId") callId = b.callId;
      else if (key === "framework") framework = b.framework;
      else {
        throw new ToolwareTypeError(
          "TOOLWARE_UNKNOWN_OPTION",
          `${where}(): ${unknownKeyMessage("binding", key, BINDING_KEYS, BINDING_HINTS)}`,
        );
      }
    }
    if (agent !== undefined && !isAgent(agent))
      throw notBranded(where, "agent", agent, Agent, "an Agent (new Agent({ role }))");
    if (crew !== undefined && !isCrew(crew))
      throw notBranded(where, "crew", crew, Crew, "a Crew (new Crew({ agents, tasks }))");
    if (task !== undefined && !isTask(task)) throw wrongType(where, "task", task, "a Task (new Task({ description }))");
    if (signal !== undefined && !isSignal(signal)) {
      throw wrongType(where, "signal", signal, "an AbortSignal (controller.signal)");
    }
    // The common bindings (no adapter) skip this: the adapter keys cost two comparisons.
    if (callId !== undefined || framework !== undefined) {
      if (callId !== undefined) {
        // Every call of a wrapped tool would share the id: trace and events could no longer tell them apart.
        if (where === "wrap")
          throw invalid(where, "bindings.callId names one call; give it to invoke(), not to wrap()");
        checkCallId(where, callId);
      }
      call = framework === undefined ? undefined : readFramework(where, framework);
    }
  } catch (error) {
    throw unreadable(where, error);
  }
  return {
    agent: agent as Agent | undefined,
    task: task as Task | undefined,
    crew: crew as Crew | undefined,
    signal: signal as AbortSignal | undefined,
    callId: callId as string | undefined,
    framework: call,
  };
}

/** The longest call id taken: ids of every framework are far shorter; longer ones are not ids. */
export const MAX_CALL_ID_LENGTH = 256;
// Ids reach logs, traces and terminals: no line breaks, escapes or invisible format characters.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function checkCallId(where: CallSite, callId: unknown): void {
  if (typeof callId !== "string" || callId === "") {
    throw wrongType(where, "callId", callId, "a non-empty string (the framework's own call id)");
  }
  if (callId.length > MAX_CALL_ID_LENGTH) {
    throw invalid(
      where,
      `bindings.callId is ${callId.length} characters long; at most ${MAX_CALL_ID_LENGTH} are taken`,
    );
  }
  if (UNPRINTABLE.test(callId)) {
    throw invalid(where, `bindings.callId ${JSON.stringify(callId)} has control or invisible characters`);
  }
}

const FRAMEWORK_KEYS = ["name", "context"];

// A Proxy whose getPrototypeOf trap throws is not a plain object either.
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  try {
    return isPlainObject(value);
  } catch {
    return false;
  }
}

/** Checks `{ name, context }` and returns a frozen copy, so a getter cannot rename the framework mid-call. */
function readFramework(where: CallSite, framework: unknown): FrameworkCall {
  if (!isPlainRecord(framework)) {
    throw wrongType(where, "framework", framework, "a plain object { name, context }");
  }
  let name: unknown;
  let context: unknown;
  for (const key in framework) {
    // Only own keys, as for the bindings (and with hasOwnProperty for the same reason).
    // biome-ignore lint/suspicious/noPrototypeBuiltins: Object.hasOwn is not optimised inside for…in
    if (!Object.prototype.hasOwnProperty.call(framework, key)) continue;
    if (key === "name") name = framework.name;
    else if (key === "context") context = framework.context;
    else {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `${where}(): ${unknownKeyMessage("bindings.framework key", key, FRAMEWORK_KEYS, {})}`,
      );
    }
  }
  if (typeof name !== "string" || name === "" || name.length > 64 || UNPRINTABLE.test(name)) {
    throw wrongType(where, "framework.name", name, "the adapter's name, a non-empty string of at most 64 characters");
  }
  return Object.freeze({ name, context });
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
