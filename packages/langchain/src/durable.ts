import { AsyncLocalStorage } from "node:async_hooks";
import { interrupt, isGraphInterrupt } from "@langchain/langgraph";
import {
  type ApprovalBinding,
  type HumanInputProvider,
  type HumanInputRequest,
  HumanInputUnavailableError,
  linkAbort,
  messageOf,
  sameBinding,
  type ToolCallOutcome,
  type ToolHooks,
  ToolwareTypeError,
} from "@toolware/core";

/** What a paused run shows in `result.__interrupt__[i].value` when a hook asks a person (the approval pack). */
export interface ToolwareInterrupt {
  readonly kind: "toolware/human-input";
  readonly prompt: string;
  readonly defaultMessage: string | undefined;
  readonly toolName: string;
  /** The tool call's id (LangChain's `tool_call.id`). */
  readonly callId: string;
  /**
   * The call this question is about: tool, call id and the digest of its arguments as asked. Resume
   * with `{ answer, binding }` (this binding) so that the answer can only run this call.
   */
  readonly binding: ApprovalBinding | undefined;
}

/** A resume value that names the call it answers: `new Command({ resume: { answer: "yes", binding } })`. */
export interface ToolwareResume {
  readonly answer: string;
  readonly binding: ApprovalBinding;
}

interface Question {
  readonly payload: ToolwareInterrupt;
  settled: boolean;
  answer(value: string): void;
  fail(error: Error): void;
}

/** How the current pass of LangGraph runs the tool (each resume brings its own handler and config). */
export interface Pass<R> {
  run(input: Record<string, unknown>): Promise<R>;
  readonly signal: AbortSignal | undefined;
}

/**
 * One tool call, alive across LangGraph's passes: the chain runs once and waits in the question,
 * while each pass of the interrupted task (the first, then every resume) drives it.
 */
export class DurableCall<R> {
  readonly questions: Question[] = [];
  readonly controller = new AbortController();
  pass: Pass<R>;
  /** The tool call this chain runs for (tool name and LangChain id), so a guarded tool inside it runs plain. */
  owner: { readonly toolName: string; readonly callId: string | undefined } | undefined;
  outcome: Promise<ToolCallOutcome<R>> | undefined;
  wake: () => void = () => {};
  /** Whether a pass is driving the call now: a resume comes only after the interrupted pass has ended. */
  driving = false;
  /**
   * Questions another call asked first in this task (its id was reused, or the tool call was changed
   * while it waited): LangGraph hands their answers out by position, so they are replayed and their
   * answers dropped, and this call's own questions come after them.
   */
  stale: readonly ToolwareInterrupt[] = [];

  constructor(
    pass: Pass<R>,
    /** The tool, id and digest of the arguments this call started with; undefined when they cannot be digested. */
    readonly binding: ApprovalBinding | undefined,
  ) {
    this.pass = pass;
    this.owner = undefined;
  }

  ask(request: HumanInputRequest): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const question: Question = {
        payload: {
          kind: "toolware/human-input",
          prompt: request.prompt,
          defaultMessage: request.defaultMessage,
          toolName: request.toolName,
          callId: request.callId,
          binding: request.binding,
        },
        settled: false,
        answer: (value) => {
          if (question.settled) return;
          question.settled = true;
          resolve(value);
        },
        fail: (error) => {
          if (question.settled) return;
          question.settled = true;
          reject(error);
        },
      };
      request.signal.addEventListener(
        "abort",
        () => question.fail(new HumanInputUnavailableError("the call was cancelled while waiting for a person")),
        { once: true },
      );
      this.questions.push(question);
      this.wake();
    });
  }
}

const current = new AsyncLocalStorage<DurableCall<unknown>>();
const registries = new WeakMap<ToolHooks, Map<string, DurableCall<unknown>>>();

/** The call whose chain is running here, if it came through this adapter. @internal */
export function currentCall(): DurableCall<unknown> | undefined {
  return current.getStore();
}

function registryOf(hooks: ToolHooks): Map<string, DurableCall<unknown>> {
  let registry = registries.get(hooks);
  if (registry === undefined) {
    registry = new Map();
    registries.set(hooks, registry);
  }
  return registry;
}

// The parallel calls of one step share the run's signal: one shared listener on it, not one per call.
function attach(call: DurableCall<unknown>, signal: AbortSignal | undefined): () => void {
  return linkAbort(signal, call.controller);
}

// What LangGraph gives back on resume: the person's answer, or `{ answer, binding }` naming the call it
// answers. Anything else, or an answer bound to another call, fails the question closed.
function readAnswer(value: unknown, asked: ToolwareInterrupt): string | Error {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    let answer: unknown;
    let binding: unknown;
    try {
      ({ answer, binding } = value as Partial<ToolwareResume>);
    } catch {
      return new HumanInputUnavailableError("the run was resumed with an answer that cannot be read");
    }
    if (typeof answer === "string" && binding !== undefined) {
      if (asked.binding === undefined || !sameBinding(binding, asked.binding)) {
        return new HumanInputUnavailableError(
          `the answer was given for another call (its binding names another tool, call id or arguments than ${asked.toolName} call ${asked.callId}); ask again`,
        );
      }
      return answer;
    }
  }
  // The model reads this message (as the approval's reason): the developer's advice rides in `cause`.
  return new HumanInputUnavailableError("the answer to this approval question could not be read", {
    cause: new Error(
      `the run was resumed with ${value === null ? "null" : typeof value} for a toolware question; resume with the answer text, such as new Command({ resume: "yes" }), or with { answer, binding }`,
    ),
  });
}

/**
 * Runs one tool call: the first pass starts the chain; a pass after a LangGraph resume finds the
 * same call (by hooks, thread and tool-call id) and hands it the answers, so no hook runs twice.
 * A question with no answer yet throws LangGraph's interrupt out of the pass; the chain waits.
 * Without a key (no tool-call id) the call is not kept across passes.
 *
 * @internal
 */
export async function runDurable<R>(
  hooks: ToolHooks,
  key: string | undefined,
  binding: ApprovalBinding | undefined,
  pass: Pass<R>,
  start: (call: DurableCall<R>) => Promise<ToolCallOutcome<R>>,
): Promise<ToolCallOutcome<R>> {
  const registry = registryOf(hooks);
  let call = (key === undefined ? undefined : registry.get(key)) as DurableCall<R> | undefined;
  // A live pass under the same key is another call that reuses the id (a second run, a model that
  // repeats ids), not a resume: joining it would hand this call that one's outcome, unguarded.
  const owned = call === undefined || !call.driving;
  // A waiting call is this one only if it is the same call: same tool, same arguments. Otherwise the
  // id was reused or the tool call changed while it waited: its chain (and its answers) answer nothing here.
  const same = call !== undefined && owned && sameBinding(call.binding, binding);
  if (call === undefined || !same) {
    const fresh = new DurableCall<R>(pass, binding);
    if (call !== undefined && owned) {
      fresh.stale = [...call.stale, ...call.questions.map((q) => q.payload)];
      call.controller.abort(new HumanInputUnavailableError("the tool call was replaced while its question waited"));
    }
    call = fresh;
    if (key !== undefined && owned) registry.set(key, fresh as DurableCall<unknown>);
    fresh.outcome = current.run(fresh as DurableCall<unknown>, () => start(fresh));
  } else {
    call.pass = pass;
  }
  const outcome = (call.outcome as Promise<ToolCallOutcome<R>>).then(
    (o) => ({ o }),
    (error: unknown) => ({ error }),
  );
  const detach = attach(call as DurableCall<unknown>, pass.signal);
  call.driving = true;
  try {
    // The answers LangGraph holds for questions another call asked first in this task are theirs, not ours.
    for (const payload of call.stale) {
      try {
        interrupt(payload);
      } catch (error) {
        if (isGraphInterrupt(error)) throw error;
      }
    }
    let replayed = 0;
    for (;;) {
      // Every question in order: answered ones only move LangGraph's interrupt counter on.
      while (replayed < call.questions.length) {
        const question = call.questions[replayed++] as Question;
        let value: unknown;
        try {
          value = interrupt(question.payload);
        } catch (error) {
          if (isGraphInterrupt(error)) throw error;
          question.fail(
            new HumanInputUnavailableError(`LangGraph could not pause the run: ${messageOf(error)}`, { cause: error }),
          );
          continue;
        }
        const answer = readAnswer(value, question.payload);
        if (typeof answer === "string") question.answer(answer);
        else question.fail(answer);
      }
      const woke = new Promise<undefined>((resolve) => {
        (call as DurableCall<R>).wake = () => resolve(undefined);
      });
      const ended = await Promise.race([outcome, woke]);
      if (ended !== undefined) {
        if (key !== undefined && registry.get(key) === call) registry.delete(key);
        if ("error" in ended) throw ended.error; // only a "throw"-policy hook makes invoke reject
        return ended.o;
      }
    }
  } finally {
    call.wake = () => {};
    call.driving = false;
    detach();
  }
}

/** Options of {@link interruptHumanInput}. */
export interface InterruptHumanInputOptions {
  /** Answers questions of calls that did not come through this adapter. Default: none (they fail closed). */
  fallback?: HumanInputProvider;
}

/**
 * A human-input provider that pauses the LangGraph run with `interrupt()` (a checkpointer is
 * needed) for calls running through {@link toolwareMiddleware} or {@link guardTool}: the approval
 * pack's question shows in `result.__interrupt__` as a {@link ToolwareInterrupt}, and
 * `new Command({ resume: "yes" })` answers it. No checkpointer, a resume value that is not a
 * string, or a call from elsewhere (with no `fallback`) throws `HumanInputUnavailableError`,
 * which the approval pack turns into a denial.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
 * hooks.use(approval({ tools: ["send_email"], timeoutMs: Number.POSITIVE_INFINITY }));
 * ```
 */
export function interruptHumanInput(options: InterruptHumanInputOptions = {}): HumanInputProvider {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "interruptHumanInput() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (key !== "fallback") {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `interruptHumanInput(): unknown option \`${key}\` (allowed: fallback)`,
      );
    }
  }
  const { fallback } = options;
  if (fallback !== undefined && typeof fallback !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "interruptHumanInput(): `fallback` must be a provider");
  }
  return function langgraphInterrupt(request) {
    const call = current.getStore();
    if (call === undefined) {
      if (fallback !== undefined) return fallback(request);
      // The model reads this message (as the approval's reason): the developer's advice rides in `cause`.
      throw new HumanInputUnavailableError("no person can be asked about this call here", {
        cause: new Error(
          `cannot ask "${request.prompt}": the call did not come through @toolware/langchain (pass interruptHumanInput({ fallback }) a provider for such calls)`,
        ),
      });
    }
    return call.ask(request);
  };
}
