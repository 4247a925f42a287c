// snippet: readme-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";

const readFile = defineTool({
  name: "read_file",
  execute: async ({ path }: { path: string }) => `contents of ${path}`,
});

const hooks = new ToolHooks();
// A middleware: code before `await next()` runs on the way in, code after it on the way out.
hooks.use(async function timing(ctx, next) {
  const started = performance.now();
  await next();
  console.log(`${ctx.toolName} ${ctx.status} in ${(performance.now() - started).toFixed(1)} ms`);
});
// A before-hook: return false or call ctx.block(reason) to stop the call.
hooks.before(function safePaths(ctx) {
  const path = String(ctx.toolInput.path);
  if (path.includes("..") || path.startsWith("/")) ctx.block("only relative paths inside the workspace");
});
// An after-hook: return a string to replace what the agent sees.
hooks.after(function redactKeys(ctx) {
  return ctx.toolResult?.replace(/sk-[\w-]+/g, "[REDACTED]");
});

const agent = new Agent({ role: "researcher" });
const outcome = await hooks.invoke(readFile, { path: "../.env" }, { agent });
// read_file blocked in 0.1 ms
console.log(outcome.status, outcome.result);
// blocked Tool execution blocked by hook. Tool: read_file. Reason: only relative paths inside the workspace
