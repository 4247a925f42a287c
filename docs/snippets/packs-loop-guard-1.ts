// snippet: packs-loop-guard-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { loopGuard } from "@toolware/packs/loop-guard";

const search = defineTool({
  name: "web_search",
  execute: async ({ query }: { query: string }) => `results for ${query}`,
});
const researcher = new Agent({ role: "researcher" });

const hooks = new ToolHooks();
const loops = loopGuard({ maxRepeats: 3, maxInWindow: 10, windowMs: "1m", sameInput: true, action: "block" });
hooks.use(loops);

await hooks.invoke(search, { query: "same" }, { agent: researcher });
await hooks.invoke(search, { query: "same" }, { agent: researcher });
const third = await hooks.invoke(search, { query: "same" }, { agent: researcher });
// onWarn (default: console.warn) prints
// "⚠️  Loop detected: web_search called 3 times in a row with the same input by agent researcher."
console.log(third.status); // "blocked"
console.log(third.result); // what the agent reads:
// "Tool execution blocked by hook. Tool: web_search. Reason: Loop detected: web_search called 3 times in a row
//  with the same input by agent researcher. Try a different approach."
// The calls it let through, oldest first: { toolName, agentRole, callId, at }.
const history = loops.history(researcher);
console.log(history.length, history[0]?.agentRole); // 2 "researcher"
console.log((await hooks.invoke(search, { query: "other" }, { agent: researcher })).status); // "ok": a new input
