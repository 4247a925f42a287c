import type { HumanInputOptions, ToolCallHookContext } from "./context.js";
import {
  HumanInputTimeoutError,
  HumanInputUnavailableError,
  messageOf,
  ToolwareError,
  ToolwareTypeError,
} from "./errors.js";
import type { HumanInputProvider } from "./human-input.js";

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
  const timeoutMs = options?.timeoutMs;
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "requestHumanInput() `timeoutMs` must be a positive number");
  }
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
