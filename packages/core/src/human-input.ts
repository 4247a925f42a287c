import type { ApprovalBinding } from "./approval-binding.js";
import { HumanInputTimeoutError, HumanInputUnavailableError, ToolwareTypeError } from "./errors.js";
import { MAX_TIMER_MS, showValue } from "./keys.js";

/** One question for a human. */
export interface HumanInputRequest {
  readonly prompt: string;
  readonly defaultMessage: string | undefined;
  readonly toolName: string;
  readonly callId: string;
  /**
   * The call this question is about, as it is when asked: tool, call id and the digest of its
   * arguments. A provider that keeps the answer for later (an inbox, a durable run) stores it and
   * lets the answer run only the call it names. Undefined when the arguments cannot be digested
   * (`TOOLWARE_UNBINDABLE_INPUT`): such a call cannot be approved for later.
   */
  readonly binding?: ApprovalBinding | undefined;
  /** Aborts when the call is cancelled; providers should stop waiting then. */
  readonly signal: AbortSignal;
}

/** Answers human-input requests: the trimmed line the human typed (`""` for Enter). */
export type HumanInputProvider = (request: HumanInputRequest) => string | Promise<string>;

/**
 * Bounds any provider with a time limit.
 *
 * @example
 * ```ts
 * new ToolHooks({ humanInput: withHumanInputTimeout(myProvider, 60_000) });
 * ```
 */
export function withHumanInputTimeout(provider: HumanInputProvider, timeoutMs: number): HumanInputProvider {
  if (typeof provider !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "withHumanInputTimeout() needs a provider function first");
  }
  // Infinity is refused too: setTimeout turns it into 1 ms, so every question would time out at once.
  if (!(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `withHumanInputTimeout() needs a positive timeout: a finite number of milliseconds, at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), got ${showValue(timeoutMs)}`,
    );
  }
  return function humanInputWithTimeout(request) {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new HumanInputTimeoutError(`no answer from a human within ${timeoutMs} ms`)),
        timeoutMs,
      );
      Promise.resolve()
        .then(() => provider(request))
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  };
}

/** A scripted answer: a fixed string, or a function of the request. */
export type ScriptedAnswer = string | ((request: HumanInputRequest) => string | Promise<string>);

/** A provider that answers from a script, and remembers what it was asked. */
export interface ScriptedHumanInput extends HumanInputProvider {
  /** Every request so far, in order. */
  readonly requests: readonly HumanInputRequest[];
  /** How many scripted answers are left. */
  readonly remaining: number;
}

/**
 * Answers from a list (one answer per request, in order) or a function, for
 * tests and programmatic approval. When the list runs out it throws
 * `HumanInputUnavailableError`, so fail-closed hooks block.
 *
 * @example
 * ```ts
 * const human = scriptedHumanInput(["yes", "no"]);
 * const hooks = new ToolHooks({ humanInput: human });
 * // … later
 * human.requests.map((r) => r.prompt);
 * ```
 */
export function scriptedHumanInput(script: readonly ScriptedAnswer[] | ScriptedAnswer): ScriptedHumanInput {
  const answers = Array.isArray(script) ? [...(script as readonly ScriptedAnswer[])] : undefined;
  const always = Array.isArray(script) ? undefined : (script as ScriptedAnswer);
  const requests: HumanInputRequest[] = [];
  const provider = async (request: HumanInputRequest): Promise<string> => {
    requests.push(request);
    const next = answers === undefined ? always : answers.shift();
    if (next === undefined) {
      throw new HumanInputUnavailableError(`the scripted human has no answer left for "${request.prompt}"`);
    }
    const answer = typeof next === "function" ? await next(request) : next;
    if (typeof answer !== "string") {
      throw new HumanInputUnavailableError(`a scripted answer must be a string, got ${typeof answer}`);
    }
    return answer.trim();
  };
  Object.defineProperties(provider, {
    requests: { get: () => [...requests] },
    remaining: { get: () => (answers === undefined ? Number.POSITIVE_INFINITY : answers.length) },
  });
  return provider as ScriptedHumanInput;
}
