// snippet: packs-conditional-2.ts
import { defineTool, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { forTools, when } from "@toolware/packs/conditional";

const hooks = new ToolHooks();
const taskSays = (word: string) => (ctx: ToolCallHookContext) =>
  ctx.task?.description.toLowerCase().includes(word) ?? false;

// A pack: only the database tools get a circuit breaker.
const breaker = forTools("db_*", circuitBreaker({ failureThreshold: 3 }));
hooks.use(breaker);

// A middleware (it declares `next`): only calls made for an urgent task are reported.
hooks.use(
  when(taskSays("urgent"), async (ctx, next) => {
    await next();
    console.log(`${ctx.toolName} ended ${ctx.status} during an urgent task`);
  }),
);

const dbQuery = defineTool({
  name: "db_query",
  execute: (_input: { sql: string }) => {
    throw new Error("connection refused");
  },
});
const webSearch = defineTool({
  name: "web_search",
  execute: (_input: { query: string }) => {
    throw new Error("HTTP 503");
  },
});

await hooks.invoke(dbQuery, { sql: "select 1" });
await hooks.invoke(webSearch, { query: "toolware" });
// The extras of the pack are still there:
console.log(breaker.state("db_query")); // { state: "closed", failures: 1, trials: 0 }
console.log(breaker.state("web_search")); // { state: "closed", failures: 0, trials: 0 }: not guarded, not counted

const urgent = new Task({ description: "Urgent: answer the customer" });
await hooks.invoke(webSearch, { query: "status page" }, { task: urgent });
// "web_search ended error during an urgent task"
