import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject } from "../internal/options.js";

/** How many characters of each part a log line shows. */
export interface PreviewLimits {
  readonly input: number;
  readonly result: number;
  readonly task: number;
}

/** The seed's cut-offs: 200 characters of input and result, 50 of the task description. */
export const DEFAULT_LIMITS: PreviewLimits = Object.freeze({ input: 200, result: 200, task: 50 });

/**
 * JSON for a log line that never throws: bigints as strings, anything JSON
 * cannot write (a cycle) as a placeholder.
 *
 * @example
 * ```ts
 * safeJson({ n: 1n }); // '{"n":"1"}'
 * ```
 */
export function safeJson(value: unknown): string {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    return json === undefined ? String(value) : json;
  } catch {
    return "[unserialisable]";
  }
}

/** Resolves the `maxPreview` option into one limit per part. */
export function limitsOf(maxPreview: number | Partial<PreviewLimits> | undefined): PreviewLimits {
  if (maxPreview === undefined) return DEFAULT_LIMITS;
  if (typeof maxPreview === "number") {
    check(maxPreview, "maxPreview");
    return { input: maxPreview, result: maxPreview, task: maxPreview };
  }
  checkOptionsObject(maxPreview, "toolware/debug-log: `maxPreview` must be a number or { input?, result?, task? }");
  checkKeys(maxPreview, Object.keys(DEFAULT_LIMITS), "toolware/debug-log", { what: "unknown `maxPreview` part" });
  // Only a missing (or undefined) part takes its default; anything else must be a valid limit.
  const part = (key: keyof PreviewLimits): number => {
    const n: unknown = maxPreview[key];
    if (n === undefined) return DEFAULT_LIMITS[key];
    check(n, `maxPreview.${key}`);
    return n as number;
  };
  return { input: part("input"), result: part("result"), task: part("task") };
}

function check(n: unknown, what: string): void {
  if (!Number.isInteger(n) || (n as number) < 1) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/debug-log: \`${what}\` must be a positive integer, got ${shown(n)}`,
    );
  }
}
