// snippet: packs-cache-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { cache } from "@toolware/packs/cache";

let runs = 0;
const search = defineTool({
  name: "web_search",
  execute: async ({ query, limit }: { query: string; limit: number }) => {
    runs++;
    return { query, hits: [`${query} 1`, `${query} 2`].slice(0, limit) };
  },
});

const hooks = new ToolHooks();
const searches = cache({ tools: ["web_search"], ttl: "10m" });
hooks.use(searches);

await hooks.invoke(search, { query: "toolware", limit: 5 }); // runs the tool
const again = await hooks.invoke(search, { limit: 5, query: "toolware" }); // a hit: key order does not matter
console.log(runs, again.result); // 1 {"query":"toolware","hits":["toolware 1","toolware 2"]}
console.log(searches.stats());
// { hits: 1, misses: 1, dedupes: 0, bypassed: 0, stored: 1, storeErrors: 0, inFlight: 0 }
console.log(await searches.invalidate("web_search")); // 1 entry dropped (after a write that makes searches stale)
