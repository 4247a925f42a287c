// snippet: registration-6.ts
import {
  Agent,
  afterToolCallCrew,
  beforeToolCall,
  beforeToolCallCrew,
  Crew,
  defineTool,
  type ToolCallHookContext,
  ToolHooks,
} from "@toolware/core";

// Decorated methods register on the crew *instance*: they run for calls bound to that crew only.
class ResearchCrew extends Crew {
  invalidQueries = 0;

  @beforeToolCallCrew
  validateToolInputs(ctx: ToolCallHookContext) {
    if (ctx.toolName === "web_search" && !ctx.toolInput.query) {
      this.invalidQueries++; // `this` is the crew
      console.log("❌ Invalid search query");
      return false;
    }
    return undefined;
  }

  @afterToolCallCrew
  logToolResults(ctx: ToolCallHookContext) {
    console.log(`✅ ${ctx.toolName} completed (${ctx.status})`);
  }

  // @beforeToolCall / @afterToolCall work on Crew methods too, and take options.
  @beforeToolCall({ tools: "web_search", priority: 1 })
  rateLimit(_ctx: ToolCallHookContext) {
    return this.invalidQueries < 3;
  }
}

const hooks = new ToolHooks();
const researcher = new Agent({ role: "researcher" });
const search = defineTool({ name: "web_search", execute: ({ query }: { query?: string }) => `results for ${query}` });

const crew = new ResearchCrew({ agents: [researcher] });
console.log(crew.list().map((h) => h.name)); // ["validateToolInputs", "logToolResults", "rateLimit"]

await hooks.invoke(search, {}, { agent: researcher, crew }); // ❌ Invalid search query, ✅ web_search completed (blocked)
await hooks.invoke(search, {}, { agent: researcher }); // no crew bound: the crew's hooks do not run

console.log(crew.dispose(), crew.disposed); // 3 true: every hook of the crew is gone

// Or let a block scope dispose of it:
{
  using scoped = new ResearchCrew({ agents: [researcher] });
  await hooks.invoke(search, { query: "toolware" }, { agent: researcher, crew: scoped });
} // scoped.dispose() ran here
