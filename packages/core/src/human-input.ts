import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { HumanInputTimeoutError, HumanInputUnavailableError, messageOf, ToolwareTypeError } from "./errors.js";
import { showValue } from "./keys.js";

/** One question for a human. */
export interface HumanInputRequest {
  readonly prompt: string;
  readonly defaultMessage: string | undefined;
  readonly toolName: string;
  readonly callId: string;
  /** Aborts when the call is cancelled; providers should stop waiting then. */
  readonly signal: AbortSignal;
}

/** Answers human-input requests: the trimmed line the human typed (`""` for Enter). */
export type HumanInputProvider = (request: HumanInputRequest) => string | Promise<string>;

/** Options of {@link terminalHumanInput}. */
export interface TerminalHumanInputOptions {
  /** Defaults to `process.stdin`. */
  input?: Readable & { isTTY?: boolean };
  /** Defaults to `process.stdout`. */
  output?: Writable;
  /** Give up after this many milliseconds (rejects with `HumanInputTimeoutError`). */
  timeoutMs?: number;
  /** Refuse to read from a stream that is not a terminal. Default: true for `process.stdin`, false for a stream you pass. */
  requireTTY?: boolean;
}

function aborted(signal: AbortSignal): Error {
  return new HumanInputUnavailableError(
    `the call was cancelled while waiting for a human: ${messageOf(signal.reason)}`,
  );
}

/**
 * Bounds any provider with a time limit.
 *
 * @example
 * ```ts
 * new ToolHooks({ humanInput: withHumanInputTimeout(myProvider, 60_000) });
 * ```
 */
export function withHumanInputTimeout(provider: HumanInputProvider, timeoutMs: number): HumanInputProvider {
  // Infinity is refused too: setTimeout turns it into 1 ms, so every question would time out at once.
  if (!(typeof timeoutMs === "number" && timeoutMs > 0 && Number.isFinite(timeoutMs))) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `withHumanInputTimeout() needs a positive timeout: a finite number of milliseconds, got ${showValue(timeoutMs)}`,
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

/**
 * Asks on a terminal: prints the prompt and the default message, reads one
 * line and trims it (Enter gives `""`). Questions from concurrent calls wait
 * their turn. Without a terminal it throws `HumanInputUnavailableError`, which
 * fail-closed hooks turn into a block.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: terminalHumanInput({ timeoutMs: 120_000 }) });
 * ```
 */
export function terminalHumanInput(options: TerminalHumanInputOptions = {}): HumanInputProvider {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const requireTTY = options.requireTTY ?? options.input === undefined;
  // One reader for the provider's lifetime, so lines typed (or piped) ahead are kept for the next question.
  let reader: ReturnType<typeof createInterface> | undefined;
  let ended = false;
  const lines: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const open = (): void => {
    if (reader !== undefined) return;
    reader = createInterface({ input, terminal: false });
    reader.on("line", (line) => {
      if (waiting === undefined) {
        lines.push(line);
        reader?.pause();
      } else {
        const w = waiting;
        waiting = undefined;
        w(line);
      }
    });
    reader.on("close", () => {
      ended = true;
      const w = waiting;
      waiting = undefined;
      w?.(undefined);
    });
  };

  const ask = (request: HumanInputRequest): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      if (requireTTY && input.isTTY !== true) {
        reject(
          new HumanInputUnavailableError(
            `cannot ask "${request.prompt}": standard input is not a terminal (pass another humanInput provider, such as scriptedHumanInput)`,
          ),
        );
        return;
      }
      if (request.signal.aborted) {
        reject(aborted(request.signal));
        return;
      }
      open();
      output.write(`\n${request.prompt}\n`);
      if (request.defaultMessage !== undefined) output.write(`${request.defaultMessage}\n`);
      output.write("> ");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (error: Error | undefined, line?: string): void => {
        if (timer !== undefined) clearTimeout(timer);
        request.signal.removeEventListener("abort", onAbort);
        waiting = undefined;
        // Nobody is waiting now: stop reading so an idle provider does not hold the process open.
        if (lines.length === 0) reader?.pause();
        if (error === undefined) resolve((line ?? "").trim());
        else reject(error);
      };
      const onAbort = (): void => finish(aborted(request.signal));
      const buffered = lines.shift();
      if (buffered !== undefined) {
        finish(undefined, buffered);
        return;
      }
      if (ended) {
        finish(new HumanInputUnavailableError(`input ended before "${request.prompt}" was answered`));
        return;
      }
      request.signal.addEventListener("abort", onAbort);
      if (options.timeoutMs !== undefined) {
        const ms = options.timeoutMs;
        timer = setTimeout(
          () => finish(new HumanInputTimeoutError(`no answer to "${request.prompt}" within ${ms} ms`)),
          ms,
        );
      }
      waiting = (line) =>
        line === undefined
          ? finish(new HumanInputUnavailableError(`input ended before "${request.prompt}" was answered`))
          : finish(undefined, line);
      reader?.resume();
    });

  return function terminalProvider(request) {
    const answer = queue.then(() => ask(request));
    queue = answer.catch(() => {});
    return answer;
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
