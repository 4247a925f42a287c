import type { ToolFilter, ToolInput } from "@toolware/core";
import type { Duration } from "../rate-limit/duration.js";
import type { CacheStore } from "./store.js";

/** Options of {@link cache}. */
export interface CacheOptions {
  /** Required: the tools to cache (names, globs, RegExps, tool objects, a predicate), or `"*"` for all. */
  tools: ToolFilter;
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
  /** Identical calls in flight share one run. Default true. */
  dedupe?: boolean;
  /** Chain position. Default -100: inside guards and validators at 0, which run (and normalise the input) first. */
  priority?: number;
  /** Told about failing store operations; the call goes on without the cache either way. */
  onStoreError?: (error: unknown, operation: "get" | "set") => void;
}

const OPTION_KEYS = new Set([
  "tools",
  "ttl",
  "store",
  "maxEntries",
  "now",
  "keyInput",
  "dedupe",
  "priority",
  "onStoreError",
]);

export function validate(options: CacheOptions): void {
  if (options === null || typeof options !== "object") {
    throw new TypeError('toolware/cache: cache() takes an options object { tools, ttl? } (tools: names or "*")');
  }
  for (const k of Object.keys(options)) {
    if (!OPTION_KEYS.has(k)) throw new TypeError(`toolware/cache: unknown option \`${k}\``);
  }
  const { tools, store, maxEntries, now, keyInput, dedupe, priority, onStoreError } = options;
  if (tools === undefined || tools === null || (Array.isArray(tools) && tools.length === 0)) {
    throw new TypeError('toolware/cache: `tools` is required: name the tools whose results may be reused, or pass "*"');
  }
  if (store !== undefined) {
    const methods = ["get", "set", "delete", "deletePrefix", "clear"] as const;
    if (store === null || methods.some((m) => typeof store[m] !== "function")) {
      throw new TypeError(`toolware/cache: \`store\` must implement ${methods.join(", ")}`);
    }
    if (maxEntries !== undefined) throw new TypeError("toolware/cache: `maxEntries` only applies to the default store");
  }
  for (const [name, fn] of [
    ["now", now],
    ["keyInput", keyInput],
    ["onStoreError", onStoreError],
  ] as const) {
    if (fn !== undefined && typeof fn !== "function")
      throw new TypeError(`toolware/cache: \`${name}\` must be a function`);
  }
  if (dedupe !== undefined && typeof dedupe !== "boolean")
    throw new TypeError("toolware/cache: `dedupe` must be a boolean");
  if (priority !== undefined && !Number.isFinite(priority)) {
    throw new TypeError(`toolware/cache: \`priority\` must be a finite number, got ${String(priority)}`);
  }
}
