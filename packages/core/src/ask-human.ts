import { type ApprovalBinding, bindApproval } from "./approval-binding.js";
import type { HumanInputOptions, ToolCallHookContext } from "./context.js";
import {
  HumanInputTimeoutError,
  HumanInputUnavailableError,
  messageOf,
  ToolwareError,
  ToolwareTypeError,
} from "./errors.js";
import type { HumanInputProvider } from "./human-input.js";
import { checkKeys, isPlainObject, MAX_TIMER_MS, showValue } from "./keys.js";

// The question names the call it is about; arguments that cannot be digested leave it unbound.
function bindingOf(ctx: ToolCallHookContext): ApprovalBinding | undefined {
  try {
    return bindApproval(ctx.toolName, ctx.callId, ctx.toolInput);
  } catch {
    return undefined;
  }
}

/** Asks the provider one question for a call, with the call's signal, the question's own and a time limit. @internal */
// A provider may throw anything, a Proxy whose getPrototypeOf trap throws included.
function isToolwareError(error: unknown): boolean {
  try {
    return error instanceof ToolwareError;
  } catch {
    return false;
  }
}

export async function askHuman(
  provider: HumanInputProvider,
  ctx: ToolCallHookContext,
  prompt: string,
  defaultMessage: string | undefined,
  options: HumanInputOptions | undefined,
): Promise<string> {
  if (typeof prompt !== "string") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "requestHumanInput() needs a prompt string");
  }
  if (defaultMessage !== undefined && typeof defaultMessage !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      `requestHumanInput() takes (prompt, defaultMessage?, options?): the default message must be a string, got ${showValue(defaultMessage)}${isPlainObject(defaultMessage) ? " (options go third: requestHumanInput(prompt, undefined, { timeoutMs }))" : ""}`,
    );
  }
  // Checked through `unknown`: the options come from untyped callers as often as typed ones. Each
  // option is read once, so a getter cannot pass the check with one value and be used with another.
  const raw: unknown = options;
  let stop: unknown;
  let asked: unknown;
  if (raw !== undefined) {
    if (!isPlainObject(raw)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `requestHumanInput() options must be an object { signal?, timeoutMs? }, got ${showValue(raw)}`,
      );
    }
    checkKeys(raw, ["signal", "timeoutMs"], "requestHumanInput() option", {
      timeout: "the time limit is `timeoutMs` (milliseconds)",
    });
    try {
      stop = raw.signal;
      asked = raw.timeoutMs;
    } catch (error) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `requestHumanInput() options could not be read: ${messageOf(error)}`,
        { cause: error },
      );
    }
    if (stop !== undefined && !(stop instanceof AbortSignal)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `requestHumanInput() \`signal\` must be an AbortSignal, got ${showValue(stop)}`,
      );
    }
  }
  if (
    asked !== undefined &&
    !(typeof asked === "number" && asked > 0 && (asked <= MAX_TIMER_MS || asked === Infinity))
  ) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `requestHumanInput() \`timeoutMs\` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), or Infinity for no time limit, got ${showValue(asked)}`,
    );
  }
  // Infinity means no time limit: handed to setTimeout it would fire after 1 ms.
  const timeoutMs = asked === Infinity ? undefined : (asked as number | undefined);
  const question = stop as AbortSignal | undefined;
  // The provider gets one signal: the call's, this question's, and the time limit's.
  const signals = [ctx.signal];
  if (question !== undefined) signals.push(question);
  const limit = timeoutMs === undefined ? undefined : new AbortController();
  if (limit !== undefined) signals.push(limit.signal);
  const signal = signals.length === 1 ? ctx.signal : AbortSignal.any(signals);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const answered = Promise.resolve(
      provider({ prompt, defaultMessage, toolName: ctx.toolName, callId: ctx.callId, binding: bindingOf(ctx), signal }),
    );
    const racers: Promise<unknown>[] = [answered];
    if (limit !== undefined) {
      racers.push(
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const error = new HumanInputTimeoutError(`no answer to "${prompt}" within ${timeoutMs} ms`);
            reject(error);
            limit.abort(error);
          }, timeoutMs);
        }),
      );
    }
    if (question !== undefined) {
      // `signal` stops the waiting even when the provider ignores it; one that watches it settles
      // first with its own error, so the give-up waits one turn of the event loop.
      racers.push(
        new Promise<never>((_, reject) => {
          onAbort = () => {
            giveUp = setTimeout(() => {
              reject(
                new HumanInputUnavailableError(
                  `stopped waiting for an answer to "${prompt}": ${messageOf(question.reason)}`,
                  { cause: question.reason },
                ),
              );
            }, 0);
          };
          if (question.aborted) onAbort();
          else question.addEventListener("abort", onAbort, { once: true });
        }),
      );
    }
    const answer = await (racers.length === 1 ? answered : Promise.race(racers));
    if (typeof answer !== "string") {
      throw new HumanInputUnavailableError(`the human-input provider returned ${typeof answer} instead of a string`);
    }
    return answer;
  } catch (error) {
    if (isToolwareError(error)) throw error;
    throw new HumanInputUnavailableError(`the human-input provider failed: ${messageOf(error)}`, { cause: error });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (giveUp !== undefined) clearTimeout(giveUp);
    if (onAbort !== undefined) question?.removeEventListener("abort", onAbort);
  }
}
