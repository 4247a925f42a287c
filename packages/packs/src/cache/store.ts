import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject } from "../internal/options.js";

/** One cached result. */
export interface CacheEntry {
  /** The raw result the tool returned; handed to `ctx.respond` on a hit. */
  readonly value: unknown;
  /** When the entry stops being served, on the cache's clock (ms). */
  readonly expiresAt: number;
}

/**
 * Where cached results live. Every method may answer synchronously (no
 * promise on the hot path) or with a promise. Keys are
 * `<tool name>\u0000<canonical JSON of the input>`, so a store can drop a
 * tool's entries by prefix. A remote store must serialise `value` itself and
 * may hash keys, as long as `deletePrefix` keeps working (e.g. hash only the
 * part after the `\u0000`).
 *
 * @example
 * ```ts
 * const redisStore: CacheStore = {
 *   get: async (key) => { const v = await redis.get(key); return v === null ? undefined : JSON.parse(v); },
 *   set: async (key, entry) => { await redis.set(key, JSON.stringify(entry), "PXAT", entry.expiresAt); },
 *   delete: async (key) => (await redis.del(key)) > 0,
 *   deletePrefix: async (prefix) => deleteByScan(`${prefix}*`),
 *   clear: () => deleteByScan("*"),
 * };
 * ```
 */
export interface CacheStore {
  /** The entry, or `undefined`; may return an expired entry (the cache checks `expiresAt`). */
  get(key: string, now: number): CacheEntry | undefined | Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): void | Promise<void>;
  delete(key: string): boolean | Promise<boolean>;
  /** Deletes every key starting with `prefix`; returns how many. */
  deletePrefix(prefix: string): number | Promise<number>;
  clear(): void | Promise<void>;
}

/** The default in-memory store: synchronous, least-recently-used eviction. */
export interface MemoryCacheStore extends CacheStore {
  get(key: string, now: number): CacheEntry | undefined;
  set(key: string, entry: CacheEntry): void;
  delete(key: string): boolean;
  deletePrefix(prefix: string): number;
  clear(): void;
  /** Entries held (expired ones included until they are read or evicted). */
  readonly size: number;
  /** Entries evicted to stay within `maxEntries`. */
  readonly evictions: number;
}

/** Options of {@link memoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /** Most entries kept; the least recently used goes first. Default 1000. */
  maxEntries?: number;
}

/**
 * An in-memory LRU store. A `Map` keeps insertion order, so re-inserting on
 * every read keeps the least recently used entry first, where eviction looks.
 *
 * @example
 * ```ts
 * const store = memoryCacheStore({ maxEntries: 10_000 });
 * hooks.use(cache({ tools: ["web_search"], ttl: "10m", store }));
 * ```
 */
export function memoryCacheStore(options: MemoryCacheStoreOptions = {}): MemoryCacheStore {
  checkOptionsObject(options, "toolware/cache: memoryCacheStore() takes an options object { maxEntries? }");
  checkKeys(options, ["maxEntries"], "toolware/cache: memoryCacheStore()");
  // `null` is a mistake, not "the default".
  const maxEntries = options.maxEntries === undefined ? 1000 : options.maxEntries;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/cache: \`maxEntries\` must be a positive integer, got ${shown(maxEntries)}`,
    );
  }
  const entries = new Map<string, CacheEntry>();
  let evictions = 0;
  // The most recently used key, last in the map, and its entry: a hit on it has no order to change (a hot
  // key's hits). Every write of the map that could touch that key clears or replaces both.
  let newest: string | undefined;
  let newestEntry: CacheEntry | undefined;
  const forgetNewest = (): void => {
    newest = undefined;
    newestEntry = undefined;
  };
  return {
    get(key: string, now: number): CacheEntry | undefined {
      // The hot key's entry is held beside the map: its hits need no lookup and have no order to change.
      const entry = key === newest ? (newestEntry as CacheEntry) : entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now) {
        entries.delete(key);
        if (key === newest) forgetNewest();
        return undefined;
      }
      if (key !== newest) {
        entries.delete(key);
        entries.set(key, entry);
        newest = key;
        newestEntry = entry;
      }
      return entry;
    },
    set(key: string, entry: CacheEntry): void {
      entries.delete(key);
      entries.set(key, entry);
      newest = key;
      newestEntry = entry;
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
        evictions++;
      }
    },
    delete(key: string): boolean {
      if (key === newest) forgetNewest();
      return entries.delete(key);
    },
    deletePrefix(prefix: string): number {
      forgetNewest();
      let n = 0;
      for (const key of entries.keys()) {
        if (key.startsWith(prefix)) {
          entries.delete(key);
          n++;
        }
      }
      return n;
    },
    clear(): void {
      forgetNewest();
      entries.clear();
    },
    get size(): number {
      return entries.size;
    },
    get evictions(): number {
      return evictions;
    },
  };
}
