// snippet: advanced-patterns-3.ts
import { Agent, Crew, defineTool, Task, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const search = defineTool({
  name: "web_search",
  execute: (input: { query: string; domains?: string[]; tenant?: string }) => input,
});
const sendEmail = defineTool({
  name: "send_email",
  execute: (input: { to: string; priority?: string; tenant?: string }) => input,
});

// Per agent: researchers search trusted domains only. The hook lives on the agent, for web_search only.
const researcher = new Agent({ role: "researcher" });
researcher.before(
  function trustedDomains(ctx) {
    ctx.toolInput.domains = ["edu", "gov", "org"];
  },
  { tools: search },
);

// Per crew: every tool a client's crew runs is told which tenant it works for.
const acme = new Crew({ name: "acme", agents: [researcher] });
acme.before(function tenant(ctx) {
  ctx.toolInput.tenant = "acme";
});

// Per task (a task has no layer): e-mails of urgent tasks go out with high priority.
hooks.before(
  function urgentPriority(ctx) {
    if (ctx.task?.description.toLowerCase().includes("urgent")) ctx.toolInput.priority = "high";
  },
  { tools: sendEmail },
);

console.log((await hooks.invoke(search, { query: "llm evals" }, { agent: researcher, crew: acme })).raw);
// { query: 'llm evals', tenant: 'acme', domains: [ 'edu', 'gov', 'org' ] }: crew hooks run before agent hooks
const urgent = new Task({ description: "URGENT: tell the team the build is broken" });
console.log((await hooks.invoke(sendEmail, { to: "team@example.com" }, { task: urgent })).raw);
// { to: 'team@example.com', priority: 'high' }
