// snippet: overview-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";

// 1. A tool: a name and an execute function (typed input, any result).
const readFile = defineTool({
  name: "read_file",
  execute: async ({ path }: { path: string }) => `contents of ${path}: API_KEY=sk-live-1234`,
});

// 2. One ToolHooks instance holds the hooks of your app.
const hooks = new ToolHooks();

// Before the tool: check or change the input, or block the call with a reason the agent reads.
hooks.before(function safePaths(ctx) {
  const path = String(ctx.toolInput.path);
  if (path.includes("..") || path.startsWith("/")) ctx.block("only relative paths inside the workspace");
});

// After the tool: return a string to replace what the agent sees.
hooks.after(function redactKeys(ctx) {
  return ctx.toolResult?.replace(/sk-[\w-]+/g, "[REDACTED]");
});

// 3. Every tool call goes through invoke() (or through a tool wrapped with hooks.wrap()).
const agent = new Agent({ role: "researcher" });
const ok = await hooks.invoke(readFile, { path: "notes.md" }, { agent });
console.log(ok.status, ok.result); // ok contents of notes.md: API_KEY=[REDACTED]

const denied = await hooks.invoke(readFile, { path: "../.env" }, { agent });
console.log(denied.status, denied.result);
// blocked Tool execution blocked by hook. Tool: read_file. Reason: only relative paths inside the workspace
console.log(denied.trace.map((t) => `${t.hook}: ${t.action}`)); // ["safePaths: blocked", "redactKeys: proceeded"]
