// snippet: hooks-3.ts
import { defineTool, ToolHooks, type ToolMiddleware } from "@toolware/core";

const hooks = new ToolHooks();
const translate = defineTool({
  name: "translate",
  execute: ({ text }: { text: string }) => text.toUpperCase(),
});

// Before `await next()`: the way in. After it: the way out, with the result (or block, or error) in ctx.
const timing: ToolMiddleware = async (ctx, next) => {
  const started = performance.now();
  await next();
  console.log(`${ctx.toolName} ${ctx.status} in ${(performance.now() - started).toFixed(1)} ms`);
};
hooks.use(timing, { name: "timing" });

// A middleware changes the result by assigning ctx.toolResult (its return value is ignored).
hooks.use(async function shorten(ctx, next) {
  if (typeof ctx.toolInput.text === "string") ctx.toolInput.text = ctx.toolInput.text.trim();
  await next();
  if (ctx.status === "ok" && ctx.toolResult !== undefined && ctx.toolResult.length > 20) {
    ctx.toolResult = `${ctx.toolResult.slice(0, 20)}…`;
  }
});

// Each middleware must call `await next()` once, or answer with ctx.respond(), or stop with ctx.block().
hooks.use(async function onlyText(ctx, next) {
  if (typeof ctx.toolInput.text !== "string") return ctx.block("`text` must be a string");
  await next();
});

console.log((await hooks.invoke(translate, { text: "  the quick brown fox jumps  " })).result);
// translate ok in 0.2 ms   (timings vary)
// THE QUICK BROWN FOX …
