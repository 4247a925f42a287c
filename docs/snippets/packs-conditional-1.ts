// snippet: packs-conditional-1.ts
import { Agent, defineTool, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { forAgents, when } from "@toolware/packs/conditional";

const hooks = new ToolHooks();
const taskSays = (word: string) => (ctx: ToolCallHookContext) =>
  ctx.task?.description.toLowerCase().includes(word) ?? false;

// Conditional blocking: junior agents may not delete files or send e-mails…
hooks.use(
  forAgents("junior_agent")
    .forTools(["delete_file", "send_email"])
    .before((ctx) => ctx.block(`junior agents cannot use ${ctx.toolName}`)),
);
// …and nobody searches the web during a sensitive task.
hooks.use(
  when(taskSays("sensitive"))
    .forTools("web_search")
    .before(() => false),
);

// Context-aware input: researchers search trusted domains only…
hooks.use(
  forAgents("researcher")
    .forTools("web_search")
    .before((ctx) => {
      ctx.toolInput.domains = ["edu", "gov", "org"];
    }),
);
// …and e-mails of urgent tasks go out with high priority.
hooks.use(
  when(taskSays("urgent"))
    .forTools("send_email")
    .before((ctx) => {
      ctx.toolInput.priority = "high";
    }),
);

const webSearch = defineTool({ name: "web_search", execute: (input: { query: string }) => input });
const deleteFile = defineTool({ name: "delete_file", execute: (input: { path: string }) => `deleted ${input.path}` });
const researcher = new Agent({ role: "researcher" });
const junior = new Agent({ role: "junior_agent" });
const review = new Task({ description: "Literature review" });
const memo = new Task({ description: "Summarise the sensitive memo" });

const outcome = await hooks.invoke(webSearch, { query: "llm evals" }, { agent: researcher, task: review });
console.log(outcome.raw); // { query: "llm evals", domains: ["edu", "gov", "org"] }
console.log((await hooks.invoke(deleteFile, { path: "notes.txt" }, { agent: junior })).reason);
// "junior agents cannot use delete_file"
console.log((await hooks.invoke(webSearch, { query: "llm evals" }, { task: memo })).status); // "blocked"
console.log((await hooks.invoke(deleteFile, { path: "notes.txt" }, { agent: researcher })).result); // deleted notes.txt
