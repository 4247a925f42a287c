import { AsyncLocalStorage } from "node:async_hooks";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type ApprovalBinding,
  type HumanInputProvider,
  type HumanInputRequest,
  HumanInputUnavailableError,
  messageOf,
  ToolwareTypeError,
} from "@toolware/core";

/** Sends one elicitation request to the client of a call. @internal */
export type Elicit = (request: HumanInputRequest) => Promise<ElicitResult>;

// Calls now running inside a guarded McpServer, by call id: how to reach the client that made each.
const live = new Map<string, Elicit>();
// The server call whose chain runs here: an id alone could be claimed by any other call (a bound
// callId, a client's `toolware/callId`), which would then ask this call's client for its approval.
const current = new AsyncLocalStorage<string>();

/** Runs a server call's chain as that call, so its questions reach its client. @internal */
export function asCall<T>(id: string, run: () => T): T {
  return current.run(id, run);
}

/** Registers a running call under an id no other running call has, and returns that id. @internal */
export function openCall(base: string, elicit: Elicit): string {
  let id = base;
  for (let n = 2; live.has(id); n++) id = `${base}~${n}`;
  live.set(id, elicit);
  return id;
}

/** @internal */
export function closeCall(id: string): void {
  live.delete(id);
}

/** Options of {@link elicitationHumanInput}. */
export interface ElicitationHumanInputOptions {
  /** Answers questions of calls that did not come through a guarded McpServer. Default: none (they fail closed). */
  fallback?: HumanInputProvider;
}

/**
 * A human-input provider that asks the person behind the MCP client, through elicitation, for calls
 * running in a {@link guardServer}-ed server: the approval pack then asks through the client's UI.
 * A client without elicitation, a declined or cancelled form, or a call from elsewhere (with no
 * `fallback`) throws `HumanInputUnavailableError`, which the approval pack turns into a denial.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: elicitationHumanInput() });
 * hooks.use(approval({ tools: { destructive: true } }));
 * guardServer(server, hooks);
 * ```
 */
export function elicitationHumanInput(options: ElicitationHumanInputOptions = {}): HumanInputProvider {
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "elicitationHumanInput() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (key !== "fallback") {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `elicitationHumanInput(): unknown option \`${key}\` (allowed: fallback)`,
      );
    }
  }
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== "function") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      "elicitationHumanInput(): `fallback` must be a human-input provider",
    );
  }
  return async function mcpElicitation(request) {
    const elicit = current.getStore() === request.callId ? live.get(request.callId) : undefined;
    if (elicit === undefined) {
      if (fallback !== undefined) return fallback(request);
      throw new HumanInputUnavailableError(
        `cannot ask "${request.prompt}": the call did not come through a guarded MCP server (pass a fallback provider)`,
      );
    }
    return elicitedAnswer(() => elicit(request));
  };
}

/**
 * Asks with `ask` (an elicitation of toolware's form: one text field, `answer`) and returns the person's answer, or
 * throws `HumanInputUnavailableError` when the client could not be asked, the form was declined or cancelled, or no
 * `answer` text came back: the approval pack turns each into a denial. For a human-input provider that elicits from a
 * client of its own, as `@toolware/gateway` does.
 *
 * @example
 * ```ts
 * const provider: HumanInputProvider = (request) => elicitedAnswer(() => client.elicitInput(elicitParams(request)));
 * ```
 */
export async function elicitedAnswer(ask: () => Promise<ElicitResult>): Promise<string> {
  let result: ElicitResult;
  try {
    result = await ask();
  } catch (error) {
    throw new HumanInputUnavailableError(`the MCP client could not be asked: ${messageOf(error)}`, { cause: error });
  }
  if (result.action !== "accept") {
    throw new HumanInputUnavailableError(
      `the person ${result.action === "decline" ? "declined" : "cancelled"} the question`,
    );
  }
  const answer = result.content?.answer;
  if (typeof answer !== "string") {
    throw new HumanInputUnavailableError("the MCP client accepted the question but sent no `answer` text");
  }
  return answer.trim();
}

/**
 * The elicitation form toolware sends: one text field, `answer`, and in `_meta["toolware/binding"]`
 * the call the question is about (tool, call id, digest of the arguments), so that a client keeping
 * answers (an inbox) can show and check what a "yes" approves. @internal
 */
export function elicitParams(request: HumanInputRequest): {
  message: string;
  _meta?: { "toolware/binding": ApprovalBinding };
  requestedSchema: {
    type: "object";
    properties: { answer: { type: "string"; title: string; description?: string } };
    required: string[];
  };
} {
  const answer: { type: "string"; title: string; description?: string } = { type: "string", title: "Answer" };
  if (request.defaultMessage !== undefined) answer.description = request.defaultMessage;
  return {
    message: request.defaultMessage === undefined ? request.prompt : `${request.prompt}\n${request.defaultMessage}`,
    requestedSchema: { type: "object", properties: { answer }, required: ["answer"] },
    ...(request.binding === undefined ? {} : { _meta: { "toolware/binding": request.binding } }),
  };
}
