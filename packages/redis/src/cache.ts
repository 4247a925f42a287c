import { ToolwareError } from "@toolware/core";
import type { CacheEntry, CacheStore } from "@toolware/packs/cache";
import { guarded } from "./deadline.js";
import { connect, deleteMatching, globEscape, type RedisStoreOptions } from "./shared.js";

/** Options of {@link redisCacheStore}. */
export type RedisCacheStoreOptions = RedisStoreOptions;

/** A cache store in Redis: every method answers with a promise. */
export interface RedisCacheStore extends CacheStore {
  get(key: string, now: number): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<boolean>;
  deletePrefix(prefix: string): Promise<number>;
  clear(): Promise<void>;
}

// `JSON.parse` defines every key as an own data property, `__proto__` included, so a stored
// value can never reach a prototype; anything but the entry's own shape reads as a miss.
function parseEntry(text: string): CacheEntry | undefined {
  const raw: unknown = JSON.parse(text);
  if (raw === null || typeof raw !== "object" || !Object.hasOwn(raw, "v")) return undefined;
  const { v, e } = raw as { v: unknown; e: unknown };
  return typeof e === "number" ? { value: v, expiresAt: e } : undefined;
}

/**
 * Cached results in Redis, shared by every process using the server: a result stored by one is
 * a hit in all the others. Entries are JSON strings under `<prefix>c:<cache key>` that Redis
 * expires with the entry (`PX`), so nothing outlives its TTL. Values go through JSON: results
 * that JSON cannot carry (a `Map`, a `Date`, `undefined` fields, a cycle) come back changed or are
 * not stored (the cache reports it through `onStoreError`). Identical calls in flight share one
 * run per process only; across processes each may run once.
 *
 * The cache never blocks a call: by default (`"fail-open"`) a Redis that does not answer within
 * `timeoutMs` is skipped without an error; with `"fail-closed"` the same operations reject, and
 * the cache counts a store error and runs the call uncached.
 *
 * @example
 * ```ts
 * const store = redisCacheStore({ client: new Redis(process.env.REDIS_URL) });
 * hooks.use(cache({ tools: ["web_search"], ttl: "10m", store, scope: "crew" }));
 * ```
 */
export function redisCacheStore(options: RedisCacheStoreOptions): RedisCacheStore {
  const c = connect(options, "cache", [], "fail-open");
  const base = `${c.prefix}c:`;
  return {
    get(key: string): Promise<CacheEntry | undefined> {
      return guarded(
        c,
        "get",
        async () => {
          const text = await c.client.get(base + key);
          return text === null ? undefined : parseEntry(text);
        },
        () => undefined,
      );
    },
    set(key: string, entry: CacheEntry): Promise<void> {
      let text: string | undefined;
      try {
        text = JSON.stringify({ v: entry.value, e: entry.expiresAt });
      } catch (error) {
        return Promise.reject(
          new ToolwareError("TOOLWARE_UNSERIALIZABLE_VALUE", "redis cache: a result could not be stored as JSON", {
            cause: error,
          }),
        );
      }
      // Redis keeps the entry as long as the cache would serve it (wall clock).
      const ttl = Math.ceil(entry.expiresAt - Date.now());
      if (text === undefined || ttl <= 0) return Promise.resolve();
      const json = text;
      return guarded(
        c,
        "set",
        async () => {
          await c.client.set(base + key, json, "PX", ttl);
        },
        () => undefined,
      );
    },
    delete(key: string): Promise<boolean> {
      return guarded(c, "delete", async () => (await c.client.unlink(base + key)) > 0);
    },
    deletePrefix(prefix: string): Promise<number> {
      return guarded(c, "deletePrefix", () => deleteMatching(c.client, `${globEscape(base + prefix)}*`));
    },
    clear(): Promise<void> {
      return guarded(c, "clear", async () => {
        await deleteMatching(c.client, `${globEscape(base)}*`);
      });
    },
  };
}
