import {
  definePack,
  type ExecuteTool,
  normalizeName,
  type Pack,
  type ToolCallHookContext,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject, MAX_TIMER_MS, ownOptions } from "../internal/options.js";
import { type ToolSelector, toolFilter } from "../internal/tool-selector.js";

export type { ToolSelector } from "../internal/tool-selector.js";

/** Per-tool limits: `perTool` by tool name (compared normalised), `default` for the rest. */
export interface TimeoutLimits {
  default?: number;
  perTool?: Readonly<Record<string, number>>;
}

/** Options of {@link timeout}. */
export interface TimeoutOptions {
  /** Milliseconds the tool may run: one number for every tool, or per-tool limits. */
  ms: number | TimeoutLimits;
  /** Only bound these tools (default: every tool that has a limit). */
  tools?: ToolSelector;
  /** The error message (the agent reads it): a string, or built from the tool name and limit. */
  message?: string | ((toolName: string, ms: number) => string);
}

/** What {@link timeout} returns: a pack plus a way to read the limit a tool gets. */
export interface TimeoutPack {
  /** The limit for a tool, or `undefined` when it is not bounded by this pack's `ms`. */
  limitFor(toolName: string): number | undefined;
}

/**
 * The tool did not finish within its time limit. It is also the abort reason of the
 * signal the tool received, so a tool can tell a timeout from a caller's cancel.
 *
 * @example
 * ```ts
 * const outcome = await hooks.invoke(slowTool, {});
 * if (outcome.error instanceof ToolTimeoutError) console.log(outcome.error.timeoutMs);
 * ```
 */
export class ToolTimeoutError extends ToolwareError {
  override name = "ToolTimeoutError";
  readonly toolName: string;
  readonly timeoutMs: number;
  constructor(toolName: string, timeoutMs: number, message?: string) {
    super("TOOLWARE_TOOL_TIMEOUT", "");
    // No "toolware:" prefix: the agent reads this message in the failed call's result.
    this.message = message ?? `${toolName} timed out after ${timeoutMs} ms`;
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}

const PREFIX = "toolware/timeout";
const OPTION_KEYS = ["ms", "tools", "message"];
const LIMIT_KEYS = ["default", "perTool"];

function invalid(message: string): never {
  throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);
}

function checkMs(value: unknown, what: string): number {
  if (typeof value !== "number" || !(value > 0 && value <= MAX_TIMER_MS)) {
    invalid(
      `${what} must be a positive, finite number of milliseconds, at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), got ${typeof value === "object" && value !== null ? shown(value) : String(value)}`,
    );
  }
  return value;
}

function compileLimits(ms: TimeoutOptions["ms"]): {
  limitFor: (toolName: string) => number | undefined;
  only?: string[];
} {
  if (typeof ms === "number") {
    const limit = checkMs(ms, "`ms`");
    return { limitFor: () => limit };
  }
  if (ms === null || typeof ms !== "object") invalid("`ms` must be a number or { default?, perTool? }");
  // Read once: the names checked below are the names the pack then applies to.
  ms = ownOptions(ms, `${PREFIX}: ms`);
  checkKeys(ms, LIMIT_KEYS, PREFIX, { at: "ms.", suggest: false });
  const fallback = ms.default === undefined ? undefined : checkMs(ms.default, "`ms.default`");
  const limits = ms.perTool === undefined ? {} : ownOptions(ms.perTool, `${PREFIX}: ms.perTool`);
  if (limits === null || typeof limits !== "object" || Array.isArray(limits)) {
    invalid("`ms.perTool` must be an object { [toolName]: milliseconds }");
  }
  const perTool = new Map<string, number>();
  for (const [name, value] of Object.entries(limits)) {
    if (/[*?]/.test(name)) invalid(`\`ms.perTool\` takes exact tool names, got ${name}`);
    const tool = normalizeName(name);
    // Refused here rather than by the core at use(): a name that is no tool, or two spellings of one tool with
    // two limits (the later one silently won).
    if (tool === "") invalid(`\`ms.perTool\` name ${JSON.stringify(name)} matches no tool once normalised`);
    if (perTool.has(tool)) invalid(`\`ms.perTool\` names ${tool} twice (${JSON.stringify(name)} is the same tool)`);
    perTool.set(tool, checkMs(value, `\`ms.perTool.${name}\``));
  }
  if (fallback === undefined && perTool.size === 0) invalid("`ms` needs a `default` or at least one `perTool` limit");
  // Normalising costs a few regex passes: do it once per tool name, not once per call.
  const seen = new Map<string, number | undefined>();
  const limitFor = (toolName: string): number | undefined => {
    if (seen.has(toolName)) return seen.get(toolName);
    const limit = perTool.get(normalizeName(toolName)) ?? fallback;
    seen.set(toolName, limit);
    return limit;
  };
  return fallback === undefined ? { limitFor, only: Object.keys(limits) } : { limitFor };
}

// The message of a timeout that has fired. A message function that throws or answers no text must not stop the
// call from ending on time (its throw, in a timer, would also crash the process): the default message is used and
// the failure is reported where listener errors go.
function textOf(message: TimeoutOptions["message"], ctx: ToolCallHookContext, ms: number): string | undefined {
  if (typeof message !== "function") return message;
  try {
    const text: unknown = message(ctx.toolName, ms);
    if (typeof text === "string" && text.trim() !== "") return text;
    ctx.reportError(
      "timeout.message",
      packTypeError(
        "TOOLWARE_INVALID_RETURN",
        `${PREFIX}: \`message\` returned ${shown(text)}, not a non-empty string`,
      ),
    );
  } catch (error) {
    ctx.reportError("timeout.message", error);
  }
  return undefined;
}

function bounded(
  execute: ExecuteTool,
  ctx: ToolCallHookContext,
  parent: AbortSignal,
  ms: number,
  message: TimeoutOptions["message"],
) {
  if (parent.aborted) return Promise.reject(parent.reason);
  const controller = new AbortController();
  return new Promise<unknown>((resolve, reject) => {
    const onParentAbort = (): void => controller.abort(parent.reason);
    const stop = (): void => {
      clearTimeout(timer);
      parent.removeEventListener("abort", onParentAbort);
    };
    // Settle as soon as the signal aborts, so a tool that ignores its signal cannot hang the call.
    controller.signal.addEventListener(
      "abort",
      () => {
        stop();
        reject(controller.signal.reason);
      },
      { once: true },
    );
    parent.addEventListener("abort", onParentAbort, { once: true });
    const timer = setTimeout(() => {
      controller.abort(new ToolTimeoutError(ctx.toolName, ms, textOf(message, ctx, ms)));
    }, ms);
    let running: Promise<unknown>;
    try {
      running = execute(controller.signal);
    } catch (error) {
      stop();
      reject(error);
      return;
    }
    running.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}

/**
 * Bounds how long a tool may run. When time is up the tool's `AbortSignal` aborts with a
 * {@link ToolTimeoutError} and the call ends at once with status `error`, even if the tool
 * ignores its signal (its late result is discarded). The signal also follows the caller's
 * signal. Only the tool is bounded: hooks have their own `timeoutMs` option.
 *
 * @example
 * ```ts
 * hooks.use(timeout({ ms: 5_000 }));
 * hooks.use(timeout({ ms: { default: 10_000, perTool: { web_search: 3_000 } } }));
 * const outcome = await hooks.invoke(slowSearch, { query: "x" });
 * // outcome.status === "error", outcome.result === "Tool execution failed. Tool: web_search. Error: web_search timed out after 3000 ms"
 * ```
 */
export function timeout(options: TimeoutOptions): Pack<TimeoutPack> {
  options = ownOptions(options, PREFIX);
  checkOptionsObject(options, `${PREFIX}: timeout() takes an options object { ms, tools?, message? }`);
  checkKeys(options, OPTION_KEYS, PREFIX, { suggest: false });
  const { message } = options;
  if (message !== undefined && typeof message !== "string" && typeof message !== "function") {
    invalid("`message` must be a string or a function");
  }
  // The agent reads this text in place of the tool's result: a blank one would tell it nothing.
  if (typeof message === "string" && message.trim() === "") invalid("`message` must not be blank");
  const { limitFor, only } = compileLimits(options.ms);
  // Without a default only the listed tools have a limit: let the core filter the rest out once per chain.
  const tools = options.tools === undefined ? only : toolFilter(options.tools, `${PREFIX}: tools`);
  return definePack({
    name: "timeout",
    hooks: [
      {
        kind: "before",
        fn: function limitToolTime(ctx) {
          const ms = limitFor(ctx.toolName);
          if (ms !== undefined) ctx.wrapExecution((execute, c, signal) => bounded(execute, c, signal, ms, message));
        },
        options: tools === undefined ? {} : { tools },
      },
    ],
    limitFor,
  });
}
