// snippet: concepts-1.ts
import { Agent, Crew, defineTool, ToolHooks } from "@toolware/core";

const log: string[] = [];
const hooks = new ToolHooks();
const researcher = new Agent({ role: "researcher" });
const crew = new Crew({ agents: [researcher] });
const search = defineTool({
  name: "web_search",
  execute: ({ query }: { query: string }) => {
    log.push("    [tool] web_search");
    return `results for ${query}`;
  },
});

// Registered in a scrambled order on purpose: the chain sorts them.
researcher.before(function agentBefore() {
  log.push("in  agentBefore");
});
researcher.after(function agentAfter() {
  log.push("out agentAfter");
});
crew.after(function crewAfter() {
  log.push("out crewAfter");
});
crew.before(function crewBefore() {
  log.push("in  crewBefore");
});
hooks.before(function globalBefore() {
  log.push("in  globalBefore");
});
hooks.after(function globalAfter() {
  log.push("out globalAfter");
});
hooks.use(async function globalMiddleware(_ctx, next) {
  log.push("in  globalMiddleware");
  await next();
  log.push("out globalMiddleware");
});
hooks.before(
  function audit() {
    log.push("in  audit (priority 10)");
  },
  { priority: 10 },
);

await hooks.invoke(search, { query: "onions" }, { agent: researcher, crew });
console.log(log.join("\n"));
// in  audit (priority 10)
// in  globalBefore
// in  globalMiddleware
// in  crewBefore
// in  agentBefore
//     [tool] web_search
// out globalMiddleware
// out agentAfter
// out crewAfter
// out globalAfter

// The same chain, outermost first (before-logic runs in this order, after-logic in reverse):
console.log(
  hooks.explain({ toolName: "web_search", agent: researcher, crew }).map((h) => `${h.layer}/${h.kind} ${h.name}`),
);
// ["global/before audit", "global/after globalAfter", "crew/after crewAfter", "agent/after agentAfter",
//  "global/before globalBefore", "global/middleware globalMiddleware", "crew/before crewBefore", "agent/before agentBefore"]
