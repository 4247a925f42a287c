import { packTypeError, shown } from "../internal/errors.js";
import { checkKeys, checkOptionsObject, ownOptions } from "../internal/options.js";
import { Lru } from "./lru.js";

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
 * An in-memory LRU store: every read makes its entry the most recently used,
 * and the least recently used goes first when the store is full.
 *
 * @example
 * ```ts
 * const store = memoryCacheStore({ maxEntries: 10_000 });
 * hooks.use(cache({ tools: ["web_search"], ttl: "10m", store }));
 * ```
 */
export function memoryCacheStore(options: MemoryCacheStoreOptions = {}): MemoryCacheStore {
  options = ownOptions(options, "toolware/cache: memoryCacheStore()");
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
  const entries = new Lru<CacheEntry>();
  let evictions = 0;
  return {
    get(key: string, now: number): CacheEntry | undefined {
      const entry = entries.use(key);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now) {
        entries.delete(key);
        return undefined;
      }
      return entry;
    },
    set(key: string, entry: CacheEntry): void {
      entries.set(key, entry);
      while (entries.size > maxEntries && entries.dropOldest()) evictions++;
    },
    delete(key: string): boolean {
      return entries.delete(key);
    },
    deletePrefix(prefix: string): number {
      let n = 0;
      // Deleting the key just visited is safe while iterating a Map.
      for (const key of entries.keys()) {
        if (key.startsWith(prefix)) {
          entries.delete(key);
          n++;
        }
      }
      return n;
    },
    clear(): void {
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
