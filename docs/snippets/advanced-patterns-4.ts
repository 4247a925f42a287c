// snippet: advanced-patterns-4.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const search = defineTool({ name: "web_search", execute: () => "results" });
const researcher = new Agent({ role: "researcher" });
const writer = new Agent({ role: "writer" });

// The seed's monitor keeps one global list that grows forever. Keep the last calls per agent instead,
// bounded, and say no (with a reason the agent can act on) instead of only printing a warning.
const NO_AGENT = {};
const recent = new WeakMap<object, string[]>();
hooks.before(function trackToolChain(ctx) {
  const calls = recent.get(ctx.agent ?? NO_AGENT) ?? [];
  calls.push(ctx.toolName);
  if (calls.length > 5) calls.shift();
  recent.set(ctx.agent ?? NO_AGENT, calls);
  if (calls.length === 5 && calls.every((name) => name === ctx.toolName)) {
    ctx.block(`${ctx.toolName} was called 5 times in a row: try a different approach`);
  }
});

// Watching the chain from outside: events see every call, whoever blocked it.
const timeline: string[] = [];
hooks.on("call:end", ({ ctx, outcome }) => timeline.push(`${ctx.agent?.role} ${ctx.toolName} ${outcome.status}`));

for (let i = 0; i < 4; i++) await hooks.invoke(search, {}, { agent: researcher });
await hooks.invoke(search, {}, { agent: writer }); // another agent: its own count
console.log((await hooks.invoke(search, {}, { agent: researcher })).reason);
// web_search was called 5 times in a row: try a different approach
console.log(timeline.slice(-2)); // ["writer web_search ok", "researcher web_search blocked"]
