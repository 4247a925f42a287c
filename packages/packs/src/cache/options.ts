import type { ToolCallHookContext, ToolInput } from "@toolware/core";
import type { Duration } from "../internal/duration.js";
import { packTypeError, shown } from "../internal/errors.js";
import { checkBoolean, checkFunction, checkKeys, checkOptionsObject, checkPriority } from "../internal/options.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import type { CacheStore } from "./store.js";

/**
 * Who may be served a stored result: everyone (`"global"`), callers with the same agent role
 * (`"agent"`), the same crew (`"crew"`), or the same string your function computes from the call
 * (a tenant or user from `ctx.bindings`, say). A function that throws or returns no string makes
 * the call bypass the cache: an unknown scope never shares a result.
 */
export type CacheScope = "global" | "agent" | "crew" | ((ctx: ToolCallHookContext) => string);

/** Options of {@link cache}. */
export interface CacheOptions {
  /** Required: the tools to cache ({@link ToolSelector}: names, globs, RegExps, tags, tool objects, a predicate), or `"*"` for all. */
  tools: ToolSelector;
  /** How long a result is served. Default `"5m"`. */
  ttl?: Duration;
  /** Where results live. Default: an in-memory LRU store of `maxEntries`. */
  store?: CacheStore;
  /** Size of the default store. Default 1000. */
  maxEntries?: number;
  /** Clock in milliseconds for expiry. Default `Date.now`. */
  now?: () => number;
  /** The part of the input that identifies a result, e.g. without volatile fields. Default: the whole input. */
  keyInput?: (input: ToolInput, toolName: string) => unknown;
  /**
   * Who shares results. Default `"global"`: any caller is served what any other caller's
   * identical call returned, which leaks one user's data to another as soon as results depend
   * on who asks (and a shared store shares them across every process).
   */
  scope?: CacheScope;
  /** Identical calls in flight share one run. Default true. */
  dedupe?: boolean;
  /** Chain position. Default -100: inside guards and validators at 0, which run (and normalise the input) first. */
  priority?: number;
  /** Told about failing store operations; the call goes on without the cache either way. */
  onStoreError?: (error: unknown, operation: "get" | "set") => void;
}

const PREFIX = "toolware/cache";
const OPTION_KEYS = [
  "tools",
  "ttl",
  "store",
  "maxEntries",
  "now",
  "keyInput",
  "dedupe",
  "priority",
  "onStoreError",
  "scope",
];

export function validate(options: CacheOptions): void {
  checkOptionsObject(options, `${PREFIX}: cache() takes an options object { tools, ttl? } (tools: names or "*")`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: { ttlMs: "ttl", maxSize: "maxEntries", max: "maxEntries" } });
  const { tools, store, maxEntries, now, keyInput, dedupe, priority, onStoreError, scope } = options;
  if (scope !== undefined && typeof scope !== "function" && !["global", "agent", "crew"].includes(scope)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`scope\` must be "global", "agent", "crew" or a function of the call, got ${shown(scope)}`,
    );
  }
  if (tools === undefined || tools === null || (Array.isArray(tools) && tools.length === 0)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`tools\` is required: name the tools whose results may be reused, or pass "*"`,
    );
  }
  if (store !== undefined) {
    const methods = ["get", "set", "delete", "deletePrefix", "clear"] as const;
    if (store === null || typeof store !== "object" || methods.some((m) => typeof store[m] !== "function")) {
      throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`store\` must implement ${methods.join(", ")}`);
    }
    if (maxEntries !== undefined) {
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${PREFIX}: \`maxEntries\` only applies to the default store (size your own store instead)`,
      );
    }
  }
  checkFunction(now, "now", PREFIX);
  checkFunction(keyInput, "keyInput", PREFIX);
  checkFunction(onStoreError, "onStoreError", PREFIX);
  checkBoolean(dedupe, "dedupe", PREFIX);
  checkPriority(priority, PREFIX);
}
