// Seed use case 7, caching tool results. The seed admits its before-hook "can't return cached result" and the
// tool runs anyway; here the cache middleware answers with ctx.respond(), so a hit never runs the tool.
// Identical calls in flight share one run, errors are not cached, and entries expire after their TTL.
import { defineTool, ToolHooks } from "@toolware/core";
import { type CacheStats, cache } from "@toolware/packs/cache";

export interface ResultCachingSummary {
  /** Queries the search API actually received, in order. */
  readonly apiCalls: readonly string[];
  /** Agent-facing results of the first two (identical) calls. */
  readonly firstTwo: readonly [string, string];
  readonly stats: CacheStats;
  /** The status of the call that failed, and of its retry (not served from the cache). */
  readonly failure: readonly [string, string];
}

export async function main(log: (line: string) => void = console.log): Promise<ResultCachingSummary> {
  let clock = 0;
  const apiCalls: string[] = [];
  let failNext = false;
  const search = defineTool({
    name: "web_search",
    execute: async ({ query, limit }: { query: string; limit: number }) => {
      apiCalls.push(query);
      await new Promise((r) => setTimeout(r, 5)); // a slow API: concurrent calls overlap
      if (failNext) {
        failNext = false;
        throw new Error("search API returned 503");
      }
      return { query, hits: Array.from({ length: limit }, (_, i) => `${query} result ${i + 1}`) };
    },
  });

  const hooks = new ToolHooks();
  // A validator at the default priority (0) runs before the cache (-100): it normalises the query,
  // so "Toolware " and "toolware" share one entry.
  hooks.before((ctx) => {
    const input = ctx.toolInput as { query: string };
    input.query = input.query.trim().toLowerCase();
  });
  const results = cache({ tools: ["web_search"], ttl: "5m", now: () => clock });
  hooks.use(results);
  hooks.after((ctx) => {
    log(`💾 ${ctx.toolName}(${JSON.stringify(ctx.toolInput)}): ${ctx.state.cache}`);
  });

  const first = await hooks.invoke(search, { query: "Toolware ", limit: 2 });
  const second = await hooks.invoke(search, { limit: 2, query: "toolware" }); // key order does not matter

  // Five agents ask the same thing at once: one API call.
  await Promise.all(Array.from({ length: 5 }, () => hooks.invoke(search, { query: "hooks", limit: 1 })));

  // After the TTL the entry is stale: the API is asked again.
  clock += 5 * 60_000;
  await hooks.invoke(search, { query: "toolware", limit: 2 });

  // A failed call is not cached: the retry reaches the API.
  failNext = true;
  const failed = await hooks.invoke(search, { query: "flaky", limit: 1 });
  const retried = await hooks.invoke(search, { query: "flaky", limit: 1 });

  const stats = results.stats();
  log(`API calls: ${apiCalls.length}; hits ${stats.hits}, misses ${stats.misses}, shared in flight ${stats.dedupes}`);
  return { apiCalls, firstTwo: [first.result, second.result], stats, failure: [failed.status, retried.status] };
}
