// snippet: concepts-2.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const readFile = defineTool({
  name: "read_file",
  execute: ({ path }: { path: string }) => `contents of ${path}`,
});

hooks.use(async function timer(ctx, next) {
  await next(); // resolves even when something inside blocks
  console.log(`timer: the call ended ${ctx.status}`);
});
hooks.after(function audit(ctx) {
  console.log(`audit: ${ctx.toolResult}`);
});
hooks.after(
  function innerAfter() {
    console.log("never printed: priority -1 puts this after-hook inside the guard");
  },
  { priority: -1 },
);
hooks.before(function guard(ctx) {
  if (String(ctx.toolInput.path).startsWith("/etc/")) ctx.block("system files are off limits");
});
hooks.before(function neverReached() {
  console.log("never printed: inside the guard");
});

const outcome = await hooks.invoke(readFile, { path: "/etc/passwd" });
// timer: the call ended blocked
// audit: Tool execution blocked by hook. Tool: read_file. Reason: system files are off limits
console.log(outcome.status, outcome.reason); // blocked system files are off limits
console.log(outcome.trace.map((t) => `${t.hook}: ${t.action}`));
// ["guard: blocked", "timer: proceeded", "audit: proceeded"]
