import { ToolwareError, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { INBOX_ERROR_STATUS, type InboxErrorCode } from "./contract.js";

/** A refusal of the inbox, with a stable `TOOLWARE_INBOX_*` code. @internal */
export function inboxError(code: InboxErrorCode, message: string, cause?: unknown): ToolwareError {
  return new ToolwareError(code, `inbox: ${message}`, cause === undefined ? undefined : { cause });
}

/**
 * The HTTP status of an inbox error (`TOOLWARE_INBOX_CONFLICT` → 409, …), 400 for an option or
 * argument mistake, 500 for anything else.
 *
 * @example
 * ```ts
 * try { await inbox.decide(id, input); } catch (e) { return c.json({ code: toolwareCode(e) }, inboxHttpStatus(e)); }
 * ```
 */
export function inboxHttpStatus(error: unknown): number {
  const code = toolwareCode(error);
  if (code !== undefined && Object.hasOwn(INBOX_ERROR_STATUS, code)) return INBOX_ERROR_STATUS[code as InboxErrorCode];
  if (error instanceof ToolwareTypeError) return 400;
  return 500;
}

function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] as number;
}

/** Refuses a non-object and unknown keys, with a "did you mean" hint. @internal */
export function checkOptions(value: unknown, allowed: readonly string[], what: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `toolware/inbox: ${what} takes an options object`);
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      const near = allowed.find((k) => distance(k.toLowerCase(), key.toLowerCase()) <= 2);
      const hint = near === undefined ? `known options: ${allowed.join(", ")}` : `did you mean "${near}"?`;
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `toolware/inbox: ${what} has no option "${key}" (${hint})`,
      );
    }
    copy[key] = (value as Record<string, unknown>)[key];
  }
  return copy;
}

/** An option mistake. @internal */
export function invalidOption(message: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `toolware/inbox: ${message}`);
}

/** A string field of a request or decision: non-empty, bounded, no control characters. @internal */
export function checkText(value: unknown, name: string, max = 200): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (typeof value !== "string" || value === "" || value.length > max || /[\u0000-\u001f\u007f]/.test(value)) {
    throw inboxError(
      "TOOLWARE_INBOX_INVALID",
      `${name} must be a non-empty string of at most ${max} printable characters`,
    );
  }
  return value;
}
