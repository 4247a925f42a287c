// snippet: readme-core-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
hooks.before((ctx) => {
  if (ctx.agent?.role === "junior_agent" && ctx.tool.destructive) ctx.block("not for juniors");
});
hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-[\w-]+/g, "[REDACTED]"));

const deleteFile = defineTool({
  name: "delete_file",
  destructive: true,
  execute: ({ path }: { path: string }) => path,
});
const outcome = await hooks.invoke(deleteFile, { path: "a.txt" }, { agent: new Agent({ role: "junior_agent" }) });
console.log(outcome.status); // "blocked"
