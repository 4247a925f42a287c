import type { Interface as ReadlineInterface } from "node:readline";
import { HumanInputTimeoutError, HumanInputUnavailableError, messageOf, ToolwareTypeError } from "./errors.js";
import type { HumanInputProvider, HumanInputRequest } from "./human-input.js";
import { checkKeys, MAX_TIMER_MS, showValue } from "./keys.js";

/**
 * What the terminal provider reads from: `process.stdin`, or any Node `Readable` (a `PassThrough` in tests).
 * Structural, so the core's declarations need no Node types.
 */
export interface TerminalInput {
  readonly isTTY?: boolean | undefined;
  on(event: string, listener: (...args: never[]) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** What the terminal provider prints to: `process.stdout`, or any Node `Writable`. */
export interface TerminalOutput {
  write(text: string): unknown;
}

/** Options of {@link terminalHumanInput}. */
export interface TerminalHumanInputOptions {
  /** Defaults to `process.stdin`, read on the first question only. */
  input?: TerminalInput;
  /** Defaults to `process.stdout`. */
  output?: TerminalOutput;
  /** Give up after this many milliseconds (rejects with `HumanInputTimeoutError`). */
  timeoutMs?: number;
  /** Refuse to read from a stream that is not a terminal. Default: true for `process.stdin`, false for a stream you pass. */
  requireTTY?: boolean;
}

type CreateInterface = typeof import("node:readline").createInterface;
interface Terminal {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  readonly createInterface: CreateInterface;
}

const OPTION_KEYS = ["input", "output", "timeoutMs", "requireTTY"];

const HINT = "pass another humanInput provider, such as scriptedHumanInput";

/**
 * Finds the streams and node:readline at the first question, never at import or construction: in an edge
 * function or a browser there is no `process`, and touching `process.stdin` in Node opens the terminal.
 * `process.getBuiltinModule` (Node ≥ 20.16, Deno, Bun) keeps bundlers from seeing a `node:` import.
 */
function findTerminal(options: TerminalHumanInputOptions): Terminal | HumanInputUnavailableError {
  const proc = typeof process === "undefined" ? undefined : process;
  const input = options.input ?? proc?.stdin;
  const output = options.output ?? proc?.stdout;
  if (input === undefined || output === undefined) {
    return new HumanInputUnavailableError(`this runtime has no terminal (no process.stdin/stdout): ${HINT}`);
  }
  const readline =
    typeof proc?.getBuiltinModule === "function"
      ? (proc.getBuiltinModule("node:readline") as typeof import("node:readline") | undefined)
      : undefined;
  if (typeof readline?.createInterface !== "function") {
    return new HumanInputUnavailableError(
      `this runtime cannot read a terminal (node:readline through process.getBuiltinModule, Node >= 20.16): ${HINT}`,
    );
  }
  return { input, output, createInterface: readline.createInterface };
}

function aborted(signal: AbortSignal): Error {
  return new HumanInputUnavailableError(
    `the call was cancelled while waiting for a human: ${messageOf(signal.reason)}`,
  );
}

/**
 * Asks on a terminal: prints the prompt and the default message, reads one
 * line and trims it (Enter gives `""`). Questions from concurrent calls wait
 * their turn. Without a terminal it throws `HumanInputUnavailableError`, which
 * fail-closed hooks turn into a block. It is the default provider of every
 * `ToolHooks`, and loads in any runtime: the terminal (`process.stdin`,
 * node:readline) is reached on the first question only, so in an edge function
 * or a browser that question is refused and the gated call blocked.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: terminalHumanInput({ timeoutMs: 120_000 }) });
 * ```
 */
export function terminalHumanInput(given: TerminalHumanInputOptions = {}): HumanInputProvider {
  if (given === null || typeof given !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "terminalHumanInput() takes an options object");
  }
  // A misspelt `timeout` would leave every question without a time limit. Each option is read once,
  // here: a getter (or a later change to the object) cannot swap a checked limit for another.
  checkKeys(given, OPTION_KEYS, "terminalHumanInput() option", {
    timeout: "the time limit is `timeoutMs` (milliseconds)",
  });
  const options: TerminalHumanInputOptions = {};
  for (const key of OPTION_KEYS) {
    let value: unknown;
    try {
      value = (given as Record<string, unknown>)[key];
    } catch (error) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `terminalHumanInput() \`${key}\` could not be read: ${messageOf(error)}`,
        { cause: error },
      );
    }
    if (value !== undefined) (options as Record<string, unknown>)[key] = value;
  }
  Object.freeze(options);
  if (options.requireTTY !== undefined && typeof options.requireTTY !== "boolean") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `terminalHumanInput() \`requireTTY\` must be true or false, got ${showValue(options.requireTTY)}`,
    );
  }
  const ms = options.timeoutMs;
  // Infinity is refused too: setTimeout turns it into 1 ms, so every question would time out at once.
  if (ms !== undefined && !(typeof ms === "number" && ms > 0 && ms <= MAX_TIMER_MS)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `terminalHumanInput() \`timeoutMs\` must be a finite number of milliseconds above 0, at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), got ${showValue(ms)}`,
    );
  }
  const requireTTY = options.requireTTY ?? options.input === undefined;
  let terminal: Terminal | HumanInputUnavailableError | undefined;
  // One reader for the provider's lifetime, so lines typed (or piped) ahead are kept for the next question.
  let reader: ReadlineInterface | undefined;
  let ended = false;
  const lines: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const open = (t: Terminal): void => {
    if (reader !== undefined) return;
    reader = t.createInterface({ input: t.input as unknown as NodeJS.ReadableStream, terminal: false });
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
      terminal ??= findTerminal(options);
      if (terminal instanceof HumanInputUnavailableError) {
        reject(terminal);
        return;
      }
      const t = terminal;
      if (requireTTY && t.input.isTTY !== true) {
        reject(
          new HumanInputUnavailableError(`cannot ask "${request.prompt}": standard input is not a terminal (${HINT})`),
        );
        return;
      }
      if (request.signal.aborted) {
        reject(aborted(request.signal));
        return;
      }
      open(t);
      t.output.write(`\n${request.prompt}\n`);
      if (request.defaultMessage !== undefined) t.output.write(`${request.defaultMessage}\n`);
      t.output.write("> ");
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
