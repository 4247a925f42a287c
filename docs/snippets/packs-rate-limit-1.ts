// snippet: packs-rate-limit-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";

const search = defineTool({
  name: "web_search",
  execute: async ({ query }: { query: string }) => `results for ${query}`,
});
const researcher = new Agent({ role: "researcher" });

let now = 0; // a fake clock (the default is Date.now), so the example runs at once
const hooks = new ToolHooks();
hooks.use(rateLimit({ max: 10, per: "1m", key: "tool+agent", now: () => now }));

for (let i = 0; i < 10; i++, now += 1_800) await hooks.invoke(search, { query: `q${i}` }, { agent: researcher });
// The 11th call, 18 s after the first:
const outcome = await hooks.invoke(search, { query: "one more" }, { agent: researcher });
console.log(outcome.status); // "blocked"
console.log(outcome.result);
// "Tool execution blocked by hook. Tool: web_search. Reason: Rate limit exceeded for
//  tool:web_search|agent:researcher: at most 10 calls per 1m. Retry after 42s."
