// snippet: concepts-4.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const quote = defineTool({
  name: "get_quote",
  execute: async ({ symbol }: { symbol: string }) => ({ symbol, price: 42 }),
});

// The same cache as one middleware: the code before `await next()` is the before-logic, the rest the after-logic.
// `tools: quote` also types ctx: respond() takes, and rawToolResult holds, the tool's own result type.
const cache = new Map<string, { symbol: string; price: number }>();
hooks.use(
  async function quoteCache(ctx, next) {
    const key = JSON.stringify(ctx.toolInput);
    const hit = cache.get(key);
    if (hit !== undefined) {
      ctx.respond(hit); // answering means not calling next()
      return;
    }
    await next();
    if (ctx.status === "ok" && ctx.rawToolResult !== undefined) cache.set(key, ctx.rawToolResult);
  },
  { tools: quote },
);

// On the way out, respond() replaces a result instead: here a fallback for a failed call.
hooks.use(async function fallback(ctx, next) {
  await next();
  if (ctx.status === "error") ctx.respond("the quote service is down; try again later");
});

console.log((await hooks.invoke(quote, { symbol: "TWR" })).result); // {"symbol":"TWR","price":42}
