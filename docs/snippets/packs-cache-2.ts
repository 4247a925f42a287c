// snippet: packs-cache-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { type CacheEntry, type CacheStore, cache } from "@toolware/packs/cache";

// Keeps entries as JSON text, as a remote store (Redis) would: every hit parses a fresh copy of the raw value.
// Its methods return promises like a network client's; plain values are fine too (the default store's are).
class JsonStore implements CacheStore {
  readonly #entries = new Map<string, string>();

  async get(key: string, now: number): Promise<CacheEntry | undefined> {
    const text = this.#entries.get(key);
    if (text === undefined) return undefined;
    const entry = JSON.parse(text) as CacheEntry;
    // Returning an expired entry would be fine (the cache checks `expiresAt`); dropping it keeps the store small.
    if (entry.expiresAt <= now) this.#entries.delete(key);
    return entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.#entries.set(key, JSON.stringify(entry)); // Redis: SET key json PXAT expiresAt
  }

  async delete(key: string): Promise<boolean> {
    return this.#entries.delete(key);
  }

  // invalidate(tool) passes "<tool>\u0000"; Redis: SCAN MATCH "<prefix>*", then DEL.
  async deletePrefix(prefix: string): Promise<number> {
    let deleted = 0;
    for (const key of this.#entries.keys()) if (key.startsWith(prefix) && this.#entries.delete(key)) deleted++;
    return deleted;
  }

  async clear(): Promise<void> {
    this.#entries.clear();
  }
}

let runs = 0;
const getUser = defineTool({
  name: "get_user",
  execute: ({ id }: { id: number }) => {
    runs++;
    return { id, roles: ["reader"] };
  },
});

const hooks = new ToolHooks();
const users = cache({ tools: "get_user", ttl: "1m", store: new JsonStore() });
hooks.use(users);

const first = await hooks.invoke(getUser, { id: 7 });
first.raw?.roles.push("admin"); // a careless caller changes the object it got
const second = await hooks.invoke(getUser, { id: 7 }); // a hit: the tool does not run again
console.log(runs, second.raw); // 1 { id: 7, roles: ["reader"] }: the cached copy is untouched
// (with the default in-memory store, the hit would share the first caller's object: roles ["reader", "admin"])
console.log(await users.invalidate(getUser)); // 1
