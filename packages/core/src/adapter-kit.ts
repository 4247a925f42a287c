import { Agent, Crew, Task } from "./entities.js";
import { messageOf, ToolwareError, ToolwareTypeError } from "./errors.js";
import type { ToolHooks } from "./tool-hooks.js";
import type { ToolCallOutcome } from "./types.js";

/**
 * An adapter's `onOutcome` option: how the app learns the status of every call, whatever the
 * framework shows the model. `frameworkContext` is what the framework passed for the call.
 */
export type OutcomeListener<C = unknown, O = unknown> = (outcome: ToolCallOutcome<O>, frameworkContext: C) => void;

/** What an adapter's `bind` option returns for one call: who makes it. */
export interface PerCallBindings {
  agent?: Agent | undefined;
  task?: Task | undefined;
  crew?: Crew | undefined;
}

/** An adapter's `bind` option: picks the bindings of each call from what the framework passed for it. */
export type BindFunction<Call> = (call: Call) => PerCallBindings | undefined;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  try {
    return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
  } catch {
    return false;
  }
}

/**
 * Hands an outcome to an adapter's `onOutcome`. A listener that throws (or returns a promise that
 * rejects) is reported where `hooks` reports failing event listeners (its `onListenerError`, with
 * `where` as the event name, such as `"ai-sdk.onOutcome"`): it never changes the call. Never throws.
 *
 * @example
 * ```ts
 * notifyOutcome(hooks, "my-framework.onOutcome", options.onOutcome, outcome, frameworkContext);
 * ```
 */
export function notifyOutcome<C, O>(
  hooks: ToolHooks,
  where: string,
  listener: OutcomeListener<C, O> | undefined,
  outcome: ToolCallOutcome<O>,
  frameworkContext: C,
): void {
  if (listener === undefined) return;
  const report = (error: unknown) => {
    try {
      hooks._reportListenerError(where, error);
    } catch {
      // Reporting is best effort: the call has ended and must stay as it ended.
    }
  };
  try {
    const returned: unknown = listener(outcome, frameworkContext);
    if (isPromiseLike(returned)) returned.then(undefined, report);
  } catch (error) {
    report(error);
  }
}

function isA(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

function invalidBindings(adapter: string, what: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_BINDINGS", `${adapter}: bind() returned ${what}`);
}

/**
 * Runs an adapter's `bind` option for one call and checks what it returned. Throws a
 * `ToolwareError` when `bind` throws or returns a promise (`TOOLWARE_BIND_FAILED`) and a
 * `ToolwareTypeError` when it returns anything but `{ agent?, task?, crew? }` or undefined
 * (`TOOLWARE_INVALID_BINDINGS`): the adapter then fails the call closed, without running the tool.
 *
 * @example
 * ```ts
 * const bindings = bindCall(options.bind, call, "my-framework"); // inside the adapter's try
 * ```
 */
export function bindCall<Call>(bind: BindFunction<Call> | undefined, call: Call, adapter: string): PerCallBindings {
  if (bind === undefined) return {};
  let bound: unknown;
  try {
    bound = bind(call);
  } catch (error) {
    throw new ToolwareError("TOOLWARE_BIND_FAILED", `${adapter}: bind() threw, so the call was not run`, {
      cause: error,
    });
  }
  if (bound === undefined) return {};
  if (isPromiseLike(bound)) {
    throw new ToolwareError("TOOLWARE_BIND_FAILED", `${adapter}: bind() must return its bindings, not a promise`);
  }
  if (bound === null || typeof bound !== "object" || Array.isArray(bound)) {
    throw invalidBindings(
      adapter,
      `${bound === null ? "null" : Array.isArray(bound) ? "an array" : typeof bound}; return { agent?, task?, crew? }`,
    );
  }
  try {
    const b = bound as Record<string, unknown>;
    let agent: unknown;
    let task: unknown;
    let crew: unknown;
    // Own keys only, each read once: an `agent` put on Object.prototype (prototype pollution) binds no call.
    for (const key of Object.keys(b)) {
      if (key === "agent") agent = b.agent;
      else if (key === "task") task = b.task;
      else if (key === "crew") crew = b.crew;
      else throw invalidBindings(adapter, `an unknown key \`${key}\`; return { agent?, task?, crew? }`);
    }
    if (agent !== undefined && !Agent._is(agent)) {
      throw invalidBindings(adapter, "an agent that is not an Agent (or a Proxy of one)");
    }
    if (task !== undefined && !isA(task, Task)) throw invalidBindings(adapter, "a task that is not a Task");
    if (crew !== undefined && !Crew._is(crew)) {
      throw invalidBindings(adapter, "a crew that is not a Crew (or a Proxy of one)");
    }
    return { agent: agent as Agent | undefined, task: task as Task | undefined, crew: crew as Crew | undefined };
  } catch (error) {
    if (error instanceof ToolwareTypeError) throw error;
    throw invalidBindings(adapter, "bindings that cannot be read");
  }
}

/**
 * The outcome of a call that failed before its chain could start (a failing `bind`, bindings or
 * arguments the framework handed over that toolware refuses): status `error`, no trace, and the
 * agent-facing text every adapter uses, so each framework's outcome mapping treats it like any
 * other failed call.
 *
 * @example
 * ```ts
 * const outcome = failedOutcome("send_email", callId, error); // "Tool execution failed. Tool: send_email. Error: …"
 * ```
 */
export function failedOutcome(
  toolName: string,
  callId: string,
  error: unknown,
  message: string = messageOf(error),
): ToolCallOutcome {
  return {
    status: "error",
    result: `Tool execution failed. Tool: ${toolName}. Error: ${message}`,
    raw: undefined,
    error,
    trace: [],
    callId,
    toolName,
  };
}
