// snippet: readme-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";

const files = new Map([["plan.md", "# Plan"]]);
const deleteFile = defineTool({
  name: "delete_file",
  destructive: true,
  execute: ({ path }: { path: string }) => (files.delete(path) ? `deleted ${path}` : `no ${path}`),
});

const hooks = new ToolHooks();
hooks.before((ctx) => {
  if (ctx.agent?.role === "junior_agent" && ctx.tool.destructive) ctx.block("junior agents cannot change files");
});
hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-[\w-]+/g, "[REDACTED]"));
hooks.use(async (ctx, next) => {
  const started = performance.now();
  await next();
  console.log(`${ctx.toolName} ${ctx.status} in ${(performance.now() - started).toFixed(1)} ms`);
});

const outcome = await hooks.invoke(deleteFile, { path: "plan.md" }, { agent: new Agent({ role: "junior_agent" }) });
console.log(outcome.status, outcome.result);
// blocked Tool execution blocked by hook. Tool: delete_file. Reason: junior agents cannot change files
