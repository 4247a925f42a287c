// snippet: context-1.ts
import { Agent, Crew, defineTool, Task, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const researcher = new Agent({ role: "researcher" });
const task = new Task({ description: "Summarise the latest onion research for the weekly digest" });
const crew = new Crew({ name: "digest", agents: [researcher], tasks: [task] });
const search = defineTool({
  name: "web_search",
  tags: ["network"],
  execute: ({ query }: { query: string }) => [`${query}: 3 papers`],
});

// The seed's debug logging, with every member a hook can read.
hooks.before(function debugToolCall(ctx) {
  console.log(`🔍 ${ctx.toolName} (call ${ctx.callId})
  - agent: ${ctx.agent?.role ?? "unknown"}, crew: ${ctx.crew?.name ?? "none"}
  - task: ${ctx.task?.description.slice(0, 50) ?? "unknown"}…
  - input: ${JSON.stringify(ctx.toolInput)}
  - tool tags: ${ctx.tool.tags.join(", ")}, destructive: ${ctx.tool.destructive}
  - status: ${ctx.status}, tool ran: ${ctx.toolRan}, result: ${ctx.toolResult}`);
});
hooks.after(function debugToolResult(ctx) {
  if (ctx.toolResult) console.log(`✅ ${ctx.toolResult.slice(0, 200)} (raw: ${typeof ctx.rawToolResult})`);
  else console.log("⚠️ no result");
  if (ctx.status === "blocked") console.log(`blocked: ${ctx.blockReason ?? "no reason given"}`);
  if (ctx.status === "error") console.log(`failed: ${String(ctx.error)}`);
});

await hooks.invoke(search, { query: "onions" }, { agent: researcher, task, crew });
// 🔍 web_search (call cq0foa-1)
//   - agent: researcher, crew: digest
//   - task: Summarise the latest onion research for the weekly…
//   - input: {"query":"onions"}
//   - tool tags: network, destructive: false
//   - status: ok, tool ran: false, result: undefined
// ✅ ["onions: 3 papers"] (raw: object)
