/** How many characters of each part a log line shows. */
export interface PreviewLimits {
  readonly input: number;
  readonly result: number;
  readonly task: number;
}

/** The seed's cut-offs: 200 characters of input and result, 50 of the task description. */
export const DEFAULT_LIMITS: PreviewLimits = Object.freeze({ input: 200, result: 200, task: 50 });

/**
 * Shortens text to `max` characters, saying how much was cut. Never splits a
 * surrogate pair, so the preview stays valid UTF-16.
 *
 * @example
 * ```ts
 * truncate("abcdef", 3); // "abc… (+3 chars)"
 * ```
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}… (+${text.length - cut} chars)`;
}

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
  if (maxPreview === null || typeof maxPreview !== "object") {
    throw new TypeError("toolware/debug-log: `maxPreview` must be a number or { input?, result?, task? }");
  }
  for (const key of Object.keys(maxPreview)) {
    if (!(key in DEFAULT_LIMITS)) throw new TypeError(`toolware/debug-log: unknown \`maxPreview\` part \`${key}\``);
  }
  const limits = { ...DEFAULT_LIMITS, ...maxPreview };
  check(limits.input, "maxPreview.input");
  check(limits.result, "maxPreview.result");
  check(limits.task, "maxPreview.task");
  return limits;
}

function check(n: unknown, what: string): void {
  if (!Number.isInteger(n) || (n as number) < 1) {
    throw new TypeError(`toolware/debug-log: \`${what}\` must be a positive integer, got ${String(n)}`);
  }
}
