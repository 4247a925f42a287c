import type { HookKind, LayerKind } from "./types.js";

/**
 * A stable identifier of one kind of toolware error, listed in docs/troubleshooting.md.
 * Messages may be reworded between versions; codes are not.
 */
export type ToolwareErrorCode = `TOOLWARE_${string}`;

/**
 * Base class of the errors toolware throws or reports at run time, so callers can tell them apart.
 * Mistakes in arguments and options are {@link ToolwareTypeError}s instead; both carry a `code`.
 *
 * @example
 * ```ts
 * try { await hooks.invoke(tool, input); } catch (e) { if (e instanceof ToolwareError) console.log(e.code); }
 * ```
 */
export class ToolwareError extends Error {
  override name = "ToolwareError";
  readonly code: ToolwareErrorCode;
  constructor(code: ToolwareErrorCode, message: string, options?: { cause?: unknown }) {
    super(`toolware: ${message}`, options);
    this.code = code;
  }
}

/**
 * A wrong argument or option (a typo, a wrong type, a missing field): a `TypeError`, as the
 * platform throws for bad arguments, with a stable `code` like Node's own `ERR_*` errors.
 *
 * @example
 * ```ts
 * try { new ToolHooks({ polcy: "block" } as never); } catch (e) { if (e instanceof ToolwareTypeError) e.code; }
 * // "TOOLWARE_UNKNOWN_OPTION"
 * ```
 */
export class ToolwareTypeError extends TypeError {
  readonly code: ToolwareErrorCode;
  constructor(code: ToolwareErrorCode, message: string, options?: { cause?: unknown }) {
    // Packs name themselves ("toolware/retry: …"): no second prefix then.
    super(/^toolware[:/]/.test(message) ? message : `toolware: ${message}`, options);
    this.code = code;
  }
}

/**
 * The stable code of an error toolware made (a {@link ToolwareError} or {@link ToolwareTypeError}),
 * or `undefined` for anything else. Never throws, whatever it is given.
 *
 * @example
 * ```ts
 * hooks.on("hook:error", ({ error }) => metrics.increment(toolwareCode(error) ?? "OTHER"));
 * ```
 */
export function toolwareCode(error: unknown): ToolwareErrorCode | undefined {
  try {
    if (error instanceof ToolwareError || error instanceof ToolwareTypeError) return error.code;
  } catch {
    // A Proxy whose getPrototypeOf trap throws is nobody's error code.
  }
  return undefined;
}

/**
 * A hook failed and its policy is `"throw"`: `invoke` rejects with this error,
 * and the policies of outer hooks do not swallow it. `cause` is the hook's error.
 *
 * @example
 * ```ts
 * hooks.before(strictCheck, { onError: "throw" });
 * await hooks.invoke(tool, input).catch((e: HookFailedError) => e.hook);
 * ```
 */
export class HookFailedError extends ToolwareError {
  override name = "HookFailedError";
  readonly hook: string;
  readonly layer: LayerKind;
  readonly kind: HookKind;
  readonly phase: "before" | "after";
  constructor(hook: string, layer: LayerKind, kind: HookKind, phase: "before" | "after", cause: unknown) {
    super("TOOLWARE_HOOK_FAILED", `hook ${hook} failed: ${messageOf(cause)}`, { cause });
    this.hook = hook;
    this.layer = layer;
    this.kind = kind;
    this.phase = phase;
  }
}

/**
 * A hook ran longer than its `timeoutMs`.
 *
 * @example
 * ```ts
 * hooks.before(slowCheck, { timeoutMs: 500 }); // fails with HookTimeoutError after 500 ms
 * ```
 */
export class HookTimeoutError extends ToolwareError {
  override name = "HookTimeoutError";
  readonly timeoutMs: number;
  constructor(hook: string, timeoutMs: number) {
    super("TOOLWARE_HOOK_TIMEOUT", `hook ${hook} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * No human could be asked: no terminal, a scripted provider out of answers,
 * or a provider that failed. Fail-closed hooks turn it into a block.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: scriptedHumanInput([]) }); // every request throws this
 * ```
 */
export class HumanInputUnavailableError extends ToolwareError {
  override name = "HumanInputUnavailableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("TOOLWARE_HUMAN_INPUT_UNAVAILABLE", message, options);
  }
}

/**
 * The human did not answer within the provider's `timeoutMs`.
 *
 * @example
 * ```ts
 * terminalHumanInput({ timeoutMs: 30_000 }); // rejects with HumanInputTimeoutError after 30 s
 * ```
 */
export class HumanInputTimeoutError extends ToolwareError {
  override name = "HumanInputTimeoutError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("TOOLWARE_HUMAN_INPUT_TIMEOUT", message, options);
  }
}

/** What {@link messageOf} says of a value it cannot read at all. */
export const UNREADABLE_VALUE = "[unreadable value]";

/**
 * A readable message from anything thrown or rejected: an `Error`'s message, a string as it is,
 * anything else as JSON or `String()`. Never throws: getters and `toString`/`toJSON` that throw,
 * proxies whose traps throw, revoked proxies and cycles give the best text that can still be read,
 * or {@link UNREADABLE_VALUE}.
 *
 * @example
 * ```ts
 * hooks.on("hook:error", ({ hook, error }) => log.warn(`${hook.name}: ${messageOf(error)}`));
 * ```
 */
export function messageOf(error: unknown): string {
  if (typeof error === "string") return error;
  let isError = false;
  try {
    isError = error instanceof Error;
    if (isError) {
      const message = (error as Error).message;
      if (typeof message === "string") return message;
    }
  } catch {
    // A getPrototypeOf trap or a message getter that throws: try the plainer forms below.
  }
  // An Error's JSON is "{}" (its fields are not enumerable), which says less than String().
  if (!isError) {
    try {
      const json = JSON.stringify(error);
      if (typeof json === "string") return json;
    } catch {
      // A cycle, a BigInt, a throwing toJSON or getter.
    }
  }
  try {
    return String(error);
  } catch {
    // No usable toString/valueOf (a null-prototype object), or one that throws.
  }
  try {
    return Object.prototype.toString.call(error);
  } catch {
    // Only a revoked proxy gets here.
  }
  return UNREADABLE_VALUE;
}
