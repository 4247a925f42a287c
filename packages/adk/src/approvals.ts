import { AsyncLocalStorage } from "node:async_hooks";
import type { BaseTool, Context } from "@google/adk";
import {
  type ApprovalBinding,
  type HumanInputProvider,
  HumanInputUnavailableError,
  sameBinding,
  ToolwareTypeError,
} from "@toolware/core";

interface LiveCall {
  readonly toolName: string;
  readonly callId: string;
  readonly tool: BaseTool;
  readonly toolContext: Context;
}

// The guarded call whose chain runs here. Looked up by async context, not by id: another call
// could carry the same id (ids come from the model) and borrow its confirmation.
const current = new AsyncLocalStorage<LiveCall>();
// The questions toolware asked through ADK and that no answer used yet, by session, tool and call id:
// only these can be answered, each once. Oldest forgotten first past MAX.
const questions = new Map<string, ApprovalBinding>();
const MAX = 10_000;
const resumable = new WeakSet<BaseTool>();

function keyOf(context: Context, toolName: string, callId: string): string {
  const { appName, userId, session } = context.invocationContext;
  return JSON.stringify([appName, userId, session.id, toolName, callId]);
}

// ADK resumes a confirmed call only when the tool says it needs confirmation: a tool toolware asked
// about says so for exactly the calls it asked about, and answers as before for every other call.
function letResume(tool: BaseTool): void {
  if (resumable.has(tool)) return;
  resumable.add(tool);
  const own = tool.checkRequireConfirmation;
  tool.checkRequireConfirmation = async function toolwareRequireConfirmation(this: BaseTool, args, context) {
    if (await own.call(this, args, context)) return true;
    const id = context?.functionCallId;
    return id !== undefined && context !== undefined && questions.has(keyOf(context, this.name, id));
  };
}

/** Runs a guarded call's chain as that call, so its questions reach its own ADK context. @internal */
export function asCall<T>(call: LiveCall, run: () => T): T {
  return current.run(call, run);
}

/** Options of {@link adkApprovals}. */
export interface AdkApprovalsOptions {
  /** Answers questions of calls that did not come through toolware's ADK plugin. Default: none (they fail closed). */
  fallback?: HumanInputProvider;
}

function ask(call: LiveCall, prompt: string, binding: ApprovalBinding | undefined): never {
  if (binding === undefined) {
    throw new HumanInputUnavailableError(
      `cannot ask about ${call.toolName} through ADK: its arguments cannot be bound to an approval`,
    );
  }
  if (questions.size >= MAX) questions.delete(questions.keys().next().value as string);
  questions.set(keyOf(call.toolContext, call.toolName, call.callId), binding);
  letResume(call.tool);
  call.toolContext.requestConfirmation({ hint: prompt, payload: { toolware: binding } });
  throw new HumanInputUnavailableError(
    `waiting for the user's confirmation of ${call.toolName} (call ${call.callId}) through ADK's adk_request_confirmation`,
  );
}

/**
 * A human-input provider that makes the approval pack ask through ADK's own tool confirmations. A
 * question asks ADK for a confirmation of the call (`toolContext.requestConfirmation`, the
 * `adk_request_confirmation` function call the client answers) and blocks the call for now; when
 * the user answers, ADK runs the call again with their `ToolConfirmation`, and the question gets
 * "yes" (`confirmed: true`) or "no". Only a confirmation of a question toolware asked, for the same
 * session, tool, call id and arguments, answers, and only once; any other (a replay, a call
 * toolware did not ask about, arguments changed by a hook before the gate) is refused.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: adkApprovals() });
 * hooks.use(approval({ tools: ["delete_file"] }));
 * const runner = new InMemoryRunner({ agent, plugins: [toolwarePlugin(hooks)] });
 * ```
 */
export function adkApprovals(options: AdkApprovalsOptions = {}): HumanInputProvider {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "adkApprovals() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (key !== "fallback") {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `adkApprovals(): unknown option \`${key}\` (allowed: fallback)`,
      );
    }
  }
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "adkApprovals(): `fallback` must be a human-input provider");
  }
  const provider: HumanInputProvider = async function adkToolConfirmation(request) {
    const call = current.getStore();
    if (call?.callId === "" && call.toolName === request.toolName) {
      // The toolware call id of a call ADK gave none was made up by the core: ADK could not resume it.
      throw new HumanInputUnavailableError(`cannot ask about ${call.toolName} through ADK: the call has no id`);
    }
    if (call === undefined || call.callId !== request.callId || call.toolName !== request.toolName) {
      if (fallback !== undefined) return fallback(request);
      throw new HumanInputUnavailableError(
        `cannot ask "${request.prompt}": the call did not come through toolware's ADK plugin (pass a fallback provider)`,
      );
    }
    const confirmation = call.toolContext.toolConfirmation;
    if (confirmation === undefined) return ask(call, request.prompt, request.binding);
    const key = keyOf(call.toolContext, call.toolName, call.callId);
    const asked = questions.get(key);
    // Taken whatever it says: one answer, one call.
    questions.delete(key);
    if (asked === undefined) {
      throw new HumanInputUnavailableError(
        `the confirmation of ${call.toolName} (call ${call.callId}) answers no question toolware asked, or was used already`,
      );
    }
    if (!sameBinding(asked, request.binding)) {
      throw new HumanInputUnavailableError(
        `the confirmation of ${call.toolName} (call ${call.callId}) was given for other arguments; register the approval before hooks that rewrite arguments`,
      );
    }
    return confirmation.confirmed === true ? "yes" : "no";
  };
  return provider;
}
