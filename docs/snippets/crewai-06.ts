// snippet: crewai-06.ts
import {
  Agent,
  afterToolCallCrew,
  beforeToolCallCrew,
  Crew,
  defaultToolHooks,
  defineTool,
  type ToolCallHookContext,
} from "@toolware/core";

// @CrewBase and @crew become a class that extends Crew; its decorated methods are hooks of each instance.
class MyProjCrew extends Crew {
  @beforeToolCallCrew
  validateToolInputs(context: ToolCallHookContext) {
    // Only applies to this crew
    if (context.toolName === "web_search") {
      if (!context.toolInput.query) {
        console.log("❌ Invalid search query");
        return false;
      }
    }
    return undefined;
  }

  @afterToolCallCrew
  logToolResults(context: ToolCallHookContext) {
    // Crew-specific tool logging
    console.log(`✅ ${context.toolName} completed`);
    return undefined;
  }
}

// Agents, tasks and the process (sequential, verbose) belong to your agent loop; toolware needs the crew instance.
const researcher = new Agent({ role: "researcher" });
const crew = new MyProjCrew({ agents: [researcher] });
const search = defineTool({ name: "web_search", execute: ({ query }: { query?: string }) => `results for ${query}` });

await defaultToolHooks.invoke(search, {}, { agent: researcher, crew }); // ❌ Invalid search query, ✅ web_search completed
await defaultToolHooks.invoke(search, {}, { agent: researcher }); // not bound to the crew: its hooks do not run
console.log(crew.dispose()); // 2: the crew's hooks are gone (CrewAI never removes them)
