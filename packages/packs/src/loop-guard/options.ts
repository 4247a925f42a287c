import type { AgentFilter, ToolFilter } from "@toolware/core";
import type { Duration } from "../rate-limit/duration.js";
import type { LoopEvent, LoopScope } from "./index.js";

/** Options of {@link loopGuard}. */
export interface LoopGuardOptions {
  /** The same call this many times in a row triggers (this call included). Default 5, as in the seed; `false` turns it off. */
  maxRepeats?: number | false;
  /** The same call this many times within `windowMs` triggers (this call included). Default: off. */
  maxInWindow?: number;
  /** The window of `maxInWindow`: milliseconds or `"30s"`, `"1m"`… Default `"1m"`. */
  windowMs?: Duration;
  /** Only count calls with the same input (canonical JSON, key order ignored) as the same call. Default false: same tool. */
  sameInput?: boolean;
  /** Whose calls are counted together: each agent's, each crew's, or all. Default `"agent"`. */
  scope?: LoopScope;
  /** `"warn"` (default, like the seed) lets the call run; `"block"` stops it. */
  action?: "warn" | "block";
  /** Told about every call that looks like a loop. Default: `console.warn`. */
  onWarn?: (event: LoopEvent) => void;
  /** The block reason the agent sees. Default: the event's message plus "Try a different approach." */
  message?: string | ((event: LoopEvent) => string);
  /** Calls kept per scope for `history()`. Default 50. */
  historySize?: number;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Chain position. Default 100: outside caches and rate limits, so looping calls are caught before they spend quota. */
  priority?: number;
  tools?: ToolFilter;
  agents?: AgentFilter;
}

const OPTION_KEYS = new Set([
  "maxRepeats",
  "maxInWindow",
  "windowMs",
  "sameInput",
  "scope",
  "action",
  "onWarn",
  "message",
  "historySize",
  "now",
  "priority",
  "tools",
  "agents",
]);

function threshold(n: unknown, what: string): void {
  if (!Number.isInteger(n) || (n as number) < 2) {
    throw new TypeError(`toolware/loop-guard: \`${what}\` must be an integer of at least 2, got ${String(n)}`);
  }
}

/** Checks options eagerly, so mistakes surface at setup, not on the first call. @internal */
export function validate(options: LoopGuardOptions): void {
  if (options === null || typeof options !== "object") {
    throw new TypeError("toolware/loop-guard: loopGuard() takes an options object");
  }
  for (const k of Object.keys(options)) {
    if (!OPTION_KEYS.has(k)) throw new TypeError(`toolware/loop-guard: unknown option \`${k}\``);
  }
  const { maxRepeats, maxInWindow, scope, action, onWarn, message, historySize, now, priority, sameInput } = options;
  if (maxRepeats !== undefined && maxRepeats !== false) threshold(maxRepeats, "maxRepeats");
  if (maxInWindow !== undefined) threshold(maxInWindow, "maxInWindow");
  if (maxRepeats === false && maxInWindow === undefined) {
    throw new TypeError(
      "toolware/loop-guard: with `maxRepeats: false`, set `maxInWindow`, or the guard checks nothing",
    );
  }
  if (options.windowMs !== undefined && maxInWindow === undefined) {
    throw new TypeError("toolware/loop-guard: `windowMs` only applies with `maxInWindow`");
  }
  if (scope !== undefined && !["agent", "crew", "global"].includes(scope)) {
    throw new TypeError(
      `toolware/loop-guard: \`scope\` must be "agent", "crew" or "global", got ${JSON.stringify(scope)}`,
    );
  }
  if (action !== undefined && action !== "warn" && action !== "block") {
    throw new TypeError(`toolware/loop-guard: \`action\` must be "warn" or "block", got ${JSON.stringify(action)}`);
  }
  if (sameInput !== undefined && typeof sameInput !== "boolean") {
    throw new TypeError("toolware/loop-guard: `sameInput` must be a boolean");
  }
  if (onWarn !== undefined && typeof onWarn !== "function") {
    throw new TypeError("toolware/loop-guard: `onWarn` must be a function");
  }
  if (message !== undefined && typeof message !== "string" && typeof message !== "function") {
    throw new TypeError("toolware/loop-guard: `message` must be a string or a function");
  }
  if (historySize !== undefined && (!Number.isInteger(historySize) || historySize < 1)) {
    throw new TypeError(`toolware/loop-guard: \`historySize\` must be a positive integer, got ${String(historySize)}`);
  }
  if (now !== undefined && typeof now !== "function")
    throw new TypeError("toolware/loop-guard: `now` must be a function");
  if (priority !== undefined && !Number.isFinite(priority)) {
    throw new TypeError(`toolware/loop-guard: \`priority\` must be a finite number, got ${String(priority)}`);
  }
}
