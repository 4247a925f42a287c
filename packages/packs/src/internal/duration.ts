import { packTypeError, shown } from "./errors.js";

/** A duration: milliseconds, or a string such as `"500ms"`, `"10s"`, `"1m"`, `"1h"`, `"1d"`. */
export type Duration = number | `${number}${DurationUnit}`;

/** Units {@link parseDuration} understands. */
export type DurationUnit = "ms" | "s" | "m" | "h" | "d";

const UNIT_MS: Record<DurationUnit, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
// No spaces, no sign, no exponent: "1 m" or "1e3ms" is more likely a typo than a duration.
const PATTERN = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const LOOSE = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/i;

/**
 * Turns a duration into milliseconds. Numbers are milliseconds; strings are a number and a
 * unit (`ms`, `s`, `m`, `h`, `d`) with nothing around or between them. Zero, negative,
 * non-finite, unit-less and spaced values throw a `TypeError` (code `TOOLWARE_INVALID_OPTION`)
 * whose message starts with `toolware/<pack>: `.
 *
 * @example
 * ```ts
 * parseDuration("1m"); // 60000
 * parseDuration("1.5s"); // 1500
 * parseDuration(250); // 250
 * parseDuration("1 m"); // throws TypeError: … (write "1m")
 * ```
 */
export function parseDuration(value: Duration, what = "duration", pack = "rate-limit"): number {
  let ms: number;
  if (typeof value === "number") {
    ms = value;
  } else if (typeof value === "string") {
    const match = PATTERN.exec(value);
    if (match === null) {
      const loose = LOOSE.exec(value);
      const hint = loose === null ? "" : ` (write ${JSON.stringify(`${loose[1]}${loose[2]?.toLowerCase()}`)})`;
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `toolware/${pack}: \`${what}\` must be a number of milliseconds or a string like "500ms", "10s", "1m", "1h", got ${shown(value)}${hint}`,
      );
    }
    ms = Number(match[1]) * UNIT_MS[match[2] as DurationUnit];
  } else {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/${pack}: \`${what}\` must be a number or a duration string, got ${shown(value)}`,
    );
  }
  if (!Number.isFinite(ms) || ms <= 0) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/${pack}: \`${what}\` must be a positive, finite duration, got ${shown(value)}`,
    );
  }
  return ms;
}

// Each unit is shown in tenths, and used only below the next one: 59.95 s rounds up to 60 s, shown as "1m".
const SCALES = [
  { unit: "s", ms: 1_000, below: 60_000 },
  { unit: "m", ms: 60_000, below: 3_600_000 },
  { unit: "h", ms: 3_600_000, below: Number.POSITIVE_INFINITY },
] as const;

/**
 * Formats milliseconds for messages: `"850ms"`, `"12s"`, `"1.5m"`, `"2h"`. It always rounds
 * up (to a whole millisecond below one second, else to a tenth of the unit shown), and picks
 * the unit after rounding, so the text never promises less waiting than `ms` and never
 * decreases as `ms` grows: 59,901 ms rounds up to 60 s and reads `"1m"`, like 60,000 ms;
 * 60,001 ms reads `"1.1m"`.
 *
 * @example
 * ```ts
 * formatDuration(90_000); // "1.5m"
 * formatDuration(59_999); // "1m"
 * formatDuration(999.2); // "1s"
 * ```
 */
export function formatDuration(ms: number): string {
  const wholeMs = Math.ceil(ms);
  if (wholeMs < 1_000) return `${wholeMs}ms`;
  for (const scale of SCALES) {
    const tenths = Math.ceil(ms / (scale.ms / 10));
    if (tenths * (scale.ms / 10) < scale.below) return `${tenths / 10}${scale.unit}`;
  }
  return `${ms}ms`;
}
