// snippet: advanced-patterns-2.ts
import { Agent, defineTool, scriptedHumanInput, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { forAgents, unless, when } from "@toolware/packs/conditional";
import { rateLimit } from "@toolware/packs/rate-limit";

const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["no"]) });
const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });
const webSearch = defineTool({ name: "web_search", execute: () => "results" });
const junior = new Agent({ role: "junior_agent" });
const lead = new Agent({ role: "team_lead" });
const isLead = (ctx: ToolCallHookContext) => ctx.agent?.role === "team_lead";
const isUrgent = (ctx: ToolCallHookContext) => ctx.task?.description.toLowerCase().includes("urgent") ?? false;

// Whole packs, for some calls only: juniors need a human's approval to send e-mail...
hooks.use(forAgents("junior_agent", approval({ tools: ["send_email"] })));
// ...everyone but team leads is rate-limited...
hooks.use(unless(isLead, rateLimit({ max: 1, per: "1m", key: "tool+agent" })));
// ...and a single hook, built up condition by condition: urgent e-mails go out with high priority.
hooks.use(
  when(isUrgent)
    .forTools("send_email")
    .before((ctx) => {
      ctx.toolInput.priority = "high";
    }),
);

console.log((await hooks.invoke(sendEmail, {}, { agent: junior })).reason);
// a human did not approve send_email (answer: "no")
await hooks.invoke(webSearch, {}, { agent: junior });
console.log((await hooks.invoke(webSearch, {}, { agent: junior })).status); // blocked: one search a minute
await hooks.invoke(webSearch, {}, { agent: lead });
console.log((await hooks.invoke(webSearch, {}, { agent: lead })).status); // ok: leads are not limited
const urgent = new Task({ description: "URGENT: the build is broken" });
console.log((await hooks.invoke(sendEmail, {}, { agent: lead, task: urgent })).status); // ok
