import type { AgentFilter, ToolCallHookContext } from "@toolware/core";
import type { Duration } from "../internal/duration.js";
import { packTypeError, shown } from "../internal/errors.js";
import {
  checkBoolean,
  checkFunction,
  checkKeys,
  checkMessage,
  checkOptionsObject,
  checkPriority,
} from "../internal/options.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import type { LoopEvent, LoopScope } from "./index.js";
import type { LoopGuardStore, MemoryLoopGuardStore } from "./store.js";

/** Options of {@link loopGuard}. */
export interface LoopGuardOptions<St extends LoopGuardStore = MemoryLoopGuardStore> {
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
  /**
   * Names whose calls are counted together instead of `scope` (not both): calls it answers the same string for share
   * one streak and window, e.g. a gateway's client. A throw or an answer that is no string fails the hook (a
   * blocking guard blocks the call).
   */
  key?: (ctx: ToolCallHookContext) => string;
  /** `"warn"` (default, like the seed) lets the call run; `"block"` stops it. */
  action?: "warn" | "block";
  /** Told about every call that looks like a loop. Default: `console.warn`. */
  onWarn?: (event: LoopEvent) => void;
  /** The block reason the agent sees. Default: the event's message plus "Try a different approach." */
  message?: string | ((event: LoopEvent) => string);
  /** Calls kept per scope for `history()`. Default 50. */
  historySize?: number;
  /**
   * Where streaks, windows and histories live. Default: a fresh in-memory store, whose scopes are the agent and
   * crew objects. A shared store (`redisLoopGuardStore` of `@toolware/redis`) keys scopes by agent role or crew name.
   */
  store?: St;
  /** Clock in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Chain position. Default 100: outside caches and rate limits, so looping calls are caught before they spend quota. */
  priority?: number;
  tools?: ToolSelector;
  agents?: AgentFilter;
}

const PREFIX = "toolware/loop-guard";
const OPTION_KEYS = [
  "maxRepeats",
  "maxInWindow",
  "windowMs",
  "sameInput",
  "scope",
  "key",
  "action",
  "onWarn",
  "message",
  "historySize",
  "now",
  "store",
  "priority",
  "tools",
  "agents",
];

const invalid = (message: string) => packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);

function threshold(n: unknown, what: string): void {
  if (!Number.isInteger(n) || (n as number) < 2) {
    throw invalid(`\`${what}\` must be an integer of at least 2, got ${shown(n)}`);
  }
}

/** Checks options eagerly, so mistakes surface at setup, not on the first call. @internal */
export function validate(options: LoopGuardOptions<LoopGuardStore>): void {
  checkOptionsObject(options, `${PREFIX}: loopGuard() takes an options object`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: { window: "windowMs", maxCalls: "maxInWindow" } });
  const { maxRepeats, maxInWindow, scope, action, onWarn, message, historySize, now, priority, sameInput } = options;
  if (maxRepeats !== undefined && maxRepeats !== false) threshold(maxRepeats, "maxRepeats");
  if (maxInWindow !== undefined) threshold(maxInWindow, "maxInWindow");
  if (maxRepeats === false && maxInWindow === undefined) {
    throw invalid("with `maxRepeats: false`, set `maxInWindow`, or the guard checks nothing");
  }
  if (options.windowMs !== undefined && maxInWindow === undefined) {
    throw invalid("`windowMs` only applies with `maxInWindow`");
  }
  if (scope !== undefined && !["agent", "crew", "global"].includes(scope)) {
    throw invalid(`\`scope\` must be "agent", "crew" or "global", got ${shown(scope)}`);
  }
  if (action !== undefined && action !== "warn" && action !== "block") {
    throw invalid(`\`action\` must be "warn" or "block", got ${shown(action)}`);
  }
  checkFunction(options.key, "key", PREFIX, " (ctx) => string");
  if (options.key !== undefined && scope !== undefined) {
    throw invalid("set `scope` or `key`, not both: `key` names the scope of each call");
  }
  checkBoolean(sameInput, "sameInput", PREFIX);
  checkFunction(onWarn, "onWarn", PREFIX);
  checkMessage(message, PREFIX);
  if (historySize !== undefined && (!Number.isInteger(historySize) || historySize < 1)) {
    throw invalid(`\`historySize\` must be a positive integer, got ${shown(historySize)}`);
  }
  checkFunction(now, "now", PREFIX);
  checkPriority(priority, PREFIX);
  const store = options.store as unknown as Partial<Record<string, unknown>> | null | undefined;
  if (store !== undefined) {
    const methods = ["observe", "history", "reset"] as const;
    if (store === null || typeof store !== "object" || methods.some((m) => typeof store[m] !== "function")) {
      throw invalid(`\`store\` must implement ${methods.join(", ")}`);
    }
  }
}
