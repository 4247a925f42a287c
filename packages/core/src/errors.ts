import type { HookKind, LayerKind } from "./types.js";

/**
 * Base class of every error toolware throws, so callers can tell them apart.
 *
 * @example
 * ```ts
 * try { await hooks.invoke(tool, input); } catch (e) { if (e instanceof ToolwareError) … }
 * ```
 */
export class ToolwareError extends Error {
  override name = "ToolwareError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(`toolware: ${message}`, options);
  }
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
    super(`hook ${hook} failed: ${messageOf(cause)}`, { cause });
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
    super(`hook ${hook} timed out after ${timeoutMs} ms`);
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
}

/** A readable message from anything thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
