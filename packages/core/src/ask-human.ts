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

/** Asks the provider one question for a call, with the call's signal, the question's own and a time limit. @internal */
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
  // Checked through `unknown`: the options come from untyped callers as often as typed ones.
  const raw: unknown = options;
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
    if (raw.signal !== undefined && !(raw.signal instanceof AbortSignal)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `requestHumanInput() \`signal\` must be an AbortSignal, got ${showValue(raw.signal)}`,
      );
    }
  }
  const asked = options?.timeoutMs;
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
  const timeoutMs = asked === Infinity ? undefined : asked;
  // The provider gets one signal: the call's, this question's, and the time limit's.
  const signals = [ctx.signal];
  if (options?.signal !== undefined) signals.push(options.signal);
  const limit = timeoutMs === undefined ? undefined : new AbortController();
  if (limit !== undefined) signals.push(limit.signal);
  const signal = signals.length === 1 ? ctx.signal : AbortSignal.any(signals);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const asked = Promise.resolve(
      provider({ prompt, defaultMessage, toolName: ctx.toolName, callId: ctx.callId, signal }),
    );
    const answer = await (limit === undefined
      ? asked
      : Promise.race([
          asked,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              const error = new HumanInputTimeoutError(`no answer to "${prompt}" within ${timeoutMs} ms`);
              limit.abort(error);
              reject(error);
            }, timeoutMs);
          }),
        ]));
    if (typeof answer !== "string") {
      throw new HumanInputUnavailableError(`the human-input provider returned ${typeof answer} instead of a string`);
    }
    return answer;
  } catch (error) {
    if (error instanceof ToolwareError) throw error;
    throw new HumanInputUnavailableError(`the human-input provider failed: ${messageOf(error)}`, { cause: error });
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}
