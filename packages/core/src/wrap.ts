import { type CallBindings, executeSignal } from "./call-args.js";
import { checkInput } from "./call-input.js";
import { markChecked } from "./tool.js";
import type { Tool, ToolCallOutcome, ToolInput } from "./types.js";

/**
 * What `execute` of a tool made by `wrap()` takes: all optional. Other keys, which agent
 * frameworks pass along (`toolCallId`, `messages`), are ignored.
 */
export interface WrappedExecuteOptions {
  /** Cancels this call; takes precedence over a signal bound by `wrap`. */
  readonly signal?: AbortSignal | undefined;
  /** The AI SDK's name for `signal`, honoured the same way. */
  readonly abortSignal?: AbortSignal | undefined;
  /** Ignored: every call gets an id of its own. */
  readonly callId?: string | undefined;
}

/** The tool `wrap()` returns: `execute` takes optional options and resolves to the agent-facing string. */
export interface WrappedTool<I extends object = ToolInput> extends Tool<I, string> {
  execute(input: I, options?: WrappedExecuteOptions): Promise<string>;
}

const NO_TAGS: readonly string[] = Object.freeze([]);
const resultOf = (outcome: ToolCallOutcome): string => outcome.result;

/**
 * The tool `wrap()` returns for a checked tool and bindings; `run` makes the call. Like
 * `invoke`, its `execute` never throws: a wrong input or signal rejects, naming `wrap()`. @internal
 */
export function wrapTool<I extends object, O>(
  tool: Tool<I, O>,
  bound: CallBindings,
  run: (args: I, bindings: CallBindings) => Promise<ToolCallOutcome<O>>,
): WrappedTool<I> {
  const execute = (input: I, options?: WrappedExecuteOptions): Promise<string> => {
    let args: I;
    let bindings = bound;
    try {
      args = checkInput(tool.name, input, "wrap") as I;
      const signal = executeSignal(options);
      if (signal !== undefined) bindings = { ...bound, signal };
    } catch (error) {
      return Promise.reject(error);
    }
    return run(args, bindings).then(resultOf);
  };
  // A hand-made tool may have no tags; a mutable array is copied so the wrapped tool stays as checked.
  const own: readonly string[] | undefined = tool.tags;
  const tags = own === undefined ? NO_TAGS : Object.isFrozen(own) ? own : Object.freeze([...own]);
  return markChecked(
    Object.freeze({
      name: tool.name,
      description: tool.description,
      tags,
      destructive: tool.destructive === true,
      execute,
    }),
  );
}
