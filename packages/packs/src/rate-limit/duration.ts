/** A duration: milliseconds, or a string such as `"500ms"`, `"10s"`, `"1m"`, `"1h"`, `"1d"`. */
export type Duration = number | `${number}${DurationUnit}`;

/** Units {@link parseDuration} understands. */
export type DurationUnit = "ms" | "s" | "m" | "h" | "d";

const UNIT_MS: Record<DurationUnit, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/;

/**
 * Turns a duration into milliseconds. Numbers are milliseconds; strings need
 * a unit (`ms`, `s`, `m`, `h`, `d`). Zero, negative, non-finite and unit-less
 * values throw a `TypeError` whose message starts with `toolware/<pack>: `.
 *
 * @example
 * ```ts
 * parseDuration("1m"); // 60000
 * parseDuration("1.5s"); // 1500
 * parseDuration(250); // 250
 * parseDuration("10 minutes"); // throws TypeError
 * ```
 */
export function parseDuration(value: Duration, what = "duration", pack = "rate-limit"): number {
  let ms: number;
  if (typeof value === "number") {
    ms = value;
  } else if (typeof value === "string") {
    const match = PATTERN.exec(value);
    if (match === null) {
      throw new TypeError(
        `toolware/${pack}: \`${what}\` must be a number of milliseconds or a string like "500ms", "10s", "1m", "1h", got ${JSON.stringify(value)}`,
      );
    }
    ms = Number(match[1]) * UNIT_MS[match[2] as DurationUnit];
  } else {
    throw new TypeError(`toolware/${pack}: \`${what}\` must be a number or a duration string, got ${typeof value}`);
  }
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new TypeError(`toolware/${pack}: \`${what}\` must be a positive, finite duration, got ${String(value)}`);
  }
  return ms;
}

/**
 * Formats milliseconds for messages: `"850ms"`, `"12s"`, `"1.5m"`, `"2h"`.
 *
 * @example
 * ```ts
 * formatDuration(90_000); // "1.5m"
 * ```
 */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.ceil(ms)}ms`;
  if (ms < 60_000) return `${trim(ms / 1_000)}s`;
  if (ms < 3_600_000) return `${trim(ms / 60_000)}m`;
  return `${trim(ms / 3_600_000)}h`;
}

// Rounds up so a retry-after never promises less waiting than needed.
function trim(n: number): string {
  return String(Math.ceil(n * 10 - 1e-9) / 10);
}
