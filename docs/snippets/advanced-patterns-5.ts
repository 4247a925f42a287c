// snippet: advanced-patterns-5.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { loopGuard } from "@toolware/packs/loop-guard";

const hooks = new ToolHooks();
const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
const researcher = new Agent({ role: "researcher" });

// The same monitor, ready-made: per agent (or crew, or global), bounded history, same-input option,
// a time-window threshold, and warn (the seed's behaviour) or block.
const loops = loopGuard({
  maxRepeats: 3,
  sameInput: true,
  action: "block",
  onWarn: (event) => console.warn(`⚠️  ${event.message}`),
});
hooks.use(loops);

await hooks.invoke(search, { query: "same" }, { agent: researcher });
await hooks.invoke(search, { query: "same" }, { agent: researcher });
const third = await hooks.invoke(search, { query: "same" }, { agent: researcher });
// ⚠️  Loop detected: web_search called 3 times in a row with the same input by agent researcher.
console.log(third.reason);
// Loop detected: web_search called 3 times in a row with the same input by agent researcher. Try a different approach.
console.log((await hooks.invoke(search, { query: "different" }, { agent: researcher })).status); // ok
console.log(loops.history(researcher).length); // 3: the calls it let through
