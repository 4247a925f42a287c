// snippet: advanced-patterns-6.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";

const hooks = new ToolHooks();
let attempts = 0;
const quotes = defineTool({
  name: "get_quote",
  execute: ({ symbol }: { symbol: string }) => {
    if (++attempts % 3 !== 0) throw new Error("upstream 503");
    return { symbol, price: 42 };
  },
});
const broken = defineTool({
  name: "get_news",
  execute: () => {
    throw new Error("upstream down");
  },
});

// One limit for all attempts (timeout registered before retry), and up to 2 retries of the tool only:
// every other hook still runs once per call.
hooks.use(timeout({ ms: 2_000 }));
hooks.use(retry({ retries: 2, minDelayMs: 10 }));

// When all else fails, answer with a fallback the agent can work with, instead of an error.
hooks.use(async function fallback(ctx, next) {
  await next();
  if (ctx.status === "error") ctx.respond(`${ctx.toolName} is unavailable right now; try again later`);
});

console.log((await hooks.invoke(quotes, { symbol: "TWR" })).result, attempts); // {"symbol":"TWR","price":42} 3
const news = await hooks.invoke(broken, {});
console.log(news.status, news.result); // ok get_news is unavailable right now; try again later
