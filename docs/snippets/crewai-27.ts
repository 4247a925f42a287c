// snippet: crewai-27.ts
import { Agent, Crew, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const researcher = new Agent({ role: "researcher" });
const crew = new Crew({ agents: [researcher] });
const search = defineTool({
  name: "web_search",
  execute: ({ query, limit }: { query: string; limit?: number }) => `${limit ?? 10} results for ${query}`,
});

// Three layers (global, crew, agent) merge into one chain per call; a priority moves a hook further out.
hooks.before(function audit() {}, { priority: 100 });
crew.before(function crewPolicy() {});
researcher.before(function agentDefaults(ctx) {
  ctx.toolInput.limit ??= 5;
});

// A per-hook timeout: a hook that hangs fails like one that throws (an observer here, so it is only skipped).
hooks.before(
  async function slowEnrichment() {
    await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
  },
  { timeoutMs: 20, onError: "continue" },
);

// Filtered hooks stay removable. (CrewAI registers a wrapper, so unregistering a filtered hook finds nothing.)
const off = hooks.after((ctx) => `${ctx.toolResult} (filtered)`, { name: "onlySearches", tools: "web_*" });

const outcome = await hooks.invoke(search, { query: "hooks" }, { agent: researcher, crew });
console.log(outcome.result); // 5 results for hooks (filtered)
// The trace: what every hook did, in the order they finished.
console.log(outcome.trace.map((t) => `${t.layer}/${t.hook}: ${t.action}`));
// ["global/audit: proceeded", "global/slowEnrichment: failed", "crew/crewPolicy: proceeded",
//  "agent/agentDefaults: modified-input", "global/onlySearches: modified-result"]
console.log(off()); // true
