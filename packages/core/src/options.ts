import { messageOf, ToolwareTypeError } from "./errors.js";
import type { HumanInputProvider } from "./human-input.js";
import { checkKeys, readOnce, showValue } from "./keys.js";
import { terminalHumanInput } from "./terminal-input.js";
import type { HookErrorPolicy } from "./types.js";

/** The agent-facing messages toolware writes; override any of them. */
export interface ToolHooksMessages {
  /** Default: `Tool execution blocked by hook. Tool: <name>` plus `. Reason: <reason>` when given. */
  blocked?: (toolName: string, reason: string | undefined) => string;
  /** When an after-phase hook failed and its result was withheld. */
  withheld?: (toolName: string, reason: string) => string;
  /** When the tool threw. */
  failed?: (toolName: string, error: unknown) => string;
}

/** Options of {@link ToolHooks}. */
export interface ToolHooksOptions {
  /** What a failing hook does unless it says otherwise. Default `"block"` (fail closed). */
  onHookError?: HookErrorPolicy;
  /** Record each hook's duration in the trace (costs two clock reads per hook). Default false. */
  timing?: boolean;
  /** Where `ctx.requestHumanInput` asks. Default: the terminal. */
  humanInput?: HumanInputProvider;
  messages?: ToolHooksMessages;
  /** Where a failing event listener (or message formatter) is reported. Default: `console.error`. */
  onListenerError?: (event: string, error: unknown) => void;
}

const POLICIES = new Set<HookErrorPolicy>(["block", "continue", "throw"]);
const OPTION_KEYS = ["onHookError", "timing", "humanInput", "messages", "onListenerError"];
const OPTION_HINTS = {
  onError: "`onError` is a per-hook option; the instance-wide policy is `onHookError`",
};

const MESSAGE_KEYS = ["blocked", "withheld", "failed"];

function checkMessages(messages: ToolHooksMessages | undefined): ToolHooksMessages {
  if (messages === undefined) return {};
  if (messages === null || typeof messages !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "`messages` must be an object");
  }
  checkKeys(messages, MESSAGE_KEYS, "message");
  const given = readOnce(messages, MESSAGE_KEYS, "message") as ToolHooksMessages;
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== "function") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `\`messages.${key}\` must be a function`);
    }
  }
  return given;
}

function defaultBlocked(toolName: string, reason: string | undefined): string {
  return reason === undefined || reason === ""
    ? `Tool execution blocked by hook. Tool: ${toolName}`
    : `Tool execution blocked by hook. Tool: ${toolName}. Reason: ${reason}`;
}

function defaultWithheld(toolName: string, reason: string): string {
  return `Tool result withheld by hook. Tool: ${toolName}. Reason: ${reason}`;
}

function defaultFailed(toolName: string, error: unknown): string {
  return `Tool execution failed. Tool: ${toolName}. Error: ${messageOf(error)}`;
}

/** Options checked, with defaults filled in and user formatters made safe. @internal */
export interface ResolvedOptions {
  readonly policy: HookErrorPolicy;
  readonly timing: boolean;
  readonly humanInput: HumanInputProvider;
  readonly onListenerError: ((event: string, error: unknown) => void) | undefined;
  readonly messages: Required<ToolHooksMessages>;
}

/** Checks `new ToolHooks()` options; `report` hears of formatters that fail at run time. @internal */
export function resolveOptions(
  options: ToolHooksOptions,
  report: (where: string, error: unknown) => void,
): ResolvedOptions {
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "new ToolHooks() takes an options object");
  }
  checkKeys(options, OPTION_KEYS, "ToolHooks option", OPTION_HINTS);
  // Each option is read once: a getter must not pass the check with one value and run with another.
  const given = readOnce(options, OPTION_KEYS, "ToolHooks option") as ToolHooksOptions;
  const policy = given.onHookError ?? "block";
  if (!POLICIES.has(policy)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `\`onHookError\` must be "block", "continue" or "throw", got ${showValue(policy)}`,
    );
  }
  if (given.humanInput !== undefined && typeof given.humanInput !== "function") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      "`humanInput` must be a function (request) => string | Promise<string>",
    );
  }
  if (given.timing !== undefined && typeof given.timing !== "boolean") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "`timing` must be true or false");
  }
  if (given.onListenerError !== undefined && typeof given.onListenerError !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "`onListenerError` must be a function");
  }
  const messages = checkMessages(given.messages);
  // A user formatter that throws must not break the call: fall back to the default text, and say so.
  const safe = <A extends unknown[]>(
    kind: string,
    custom: ((...a: A) => string) | undefined,
    fallback: (...a: A) => string,
  ) =>
    custom === undefined
      ? fallback
      : (...args: A): string => {
          try {
            const text = custom(...args);
            if (typeof text === "string") return text;
            throw new ToolwareTypeError(
              "TOOLWARE_INVALID_MESSAGE",
              `messages.${kind} returned ${text === null ? "null" : typeof text} instead of a string`,
            );
          } catch (error) {
            report(`messages.${kind}`, error);
            return fallback(...args);
          }
        };
  return {
    policy,
    timing: given.timing === true,
    humanInput: given.humanInput ?? terminalHumanInput(),
    onListenerError: given.onListenerError,
    messages: {
      blocked: safe("blocked", messages.blocked, defaultBlocked),
      withheld: safe("withheld", messages.withheld, defaultWithheld),
      failed: safe("failed", messages.failed, defaultFailed),
    },
  };
}
