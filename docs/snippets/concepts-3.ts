// snippet: concepts-3.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
let runs = 0;
const search = defineTool({
  name: "web_search",
  execute: ({ query }: { query: string }) => {
    runs++;
    return { query, hits: 3 };
  },
});

// The seed's cache example, finished: a before-hook can answer from the cache with ctx.respond().
const cache = new Map<string, unknown>();
const keyOf = (toolName: string, input: object) => `${toolName}:${JSON.stringify(input)}`;

hooks.before(function checkCache(ctx) {
  const key = keyOf(ctx.toolName, ctx.toolInput);
  if (cache.has(key)) ctx.respond(cache.get(key)); // the tool and every hook inside are skipped
});
hooks.after(function cacheResult(ctx) {
  // Wraps checkCache (after-hooks are outside before-hooks), so it also sees cache hits: store real runs only.
  if (ctx.status === "ok" && ctx.toolRan) cache.set(keyOf(ctx.toolName, ctx.toolInput), ctx.rawToolResult);
});

const first = await hooks.invoke(search, { query: "toolware" });
const second = await hooks.invoke(search, { query: "toolware" });
console.log(first.result, second.result, runs); // {"query":"toolware","hits":3} {"query":"toolware","hits":3} 1
console.log(second.trace.map((t) => `${t.hook}: ${t.action}`)); // ["checkCache: substituted", "cacheResult: proceeded"]
