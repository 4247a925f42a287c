import { defineTool } from "@toolware/core";
import type { CacheEntry, CacheStore } from "@toolware/packs/cache";

// Tools whose runs are counted; `search` waits until the test opens its gates.
export function setup() {
  let t = 1_000;
  const runs: string[] = [];
  let failNext = 0;
  const gates: (() => void)[] = [];
  const search = defineTool({
    name: "web_search",
    execute: async (input: { query: string; limit?: number }) => {
      runs.push(input.query);
      await new Promise<void>((r) => gates.push(r));
      if (failNext > 0) {
        failNext--;
        throw new Error("upstream 503");
      }
      return { hits: [`${input.query}-1`, `${input.query}-2`], limit: input.limit };
    },
  });
  const syncSearch = defineTool({
    name: "sync_search",
    execute: (input: { query: string }) => {
      runs.push(input.query);
      return `results for ${input.query}`;
    },
  });
  const other = defineTool({ name: "other", execute: () => runs.push("other") });
  // Lets every pending tool run finish, then lets the chain settle.
  const openGates = async () => {
    for (let i = 0; i < 5; i++) {
      while (gates.length > 0) gates.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
  };
  return {
    clock: { now: () => t, advance: (ms: number) => (t += ms) },
    search,
    syncSearch,
    other,
    runs,
    failNextRuns: (k: number) => {
      failNext = k;
    },
    openGates,
  };
}

/** A map-backed store that records every key it is asked for. */
export function recordingStore(): CacheStore & { keys: string[] } {
  const map = new Map<string, CacheEntry>();
  const keys: string[] = [];
  return {
    keys,
    get: (key) => {
      keys.push(key);
      return map.get(key);
    },
    set: (key, entry) => void map.set(key, entry),
    delete: (key) => map.delete(key),
    deletePrefix: () => 0,
    clear: () => map.clear(),
  };
}
