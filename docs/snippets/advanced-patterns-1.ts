// snippet: advanced-patterns-1.ts
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const tool = (name: string, destructive = false) => defineTool({ name, destructive, execute: () => `${name} done` });
const deleteFile = tool("delete_file", true);
const sendEmail = tool("send_email");
const webSearch = tool("web_search");
const readFile = tool("read_file");

const junior = new Agent({ role: "junior_agent" });
const intern = new Agent({ role: "intern" });
const memo = new Task({ description: "Review the Sensitive merger memo" });

// "Only block for specific agents": the filters are decided once per (tool, agent) chain, so the hook
// body is only the decision, and other tools' chains do not even contain the hook.
hooks.before((ctx) => ctx.block(`junior agents cannot use ${ctx.toolName}`), {
  name: "juniorRestrictions",
  agents: "junior_agent",
  tools: ["delete_file", "send_email"],
});

// "Only block during specific tasks": tasks have no layer, so the task is checked in the body,
// which only runs in web_search chains.
hooks.before(
  function noSearchOnSensitiveTasks(ctx) {
    if (ctx.task?.description.toLowerCase().includes("sensitive")) ctx.block("no web search during sensitive tasks");
  },
  { tools: "web_search" },
);

// Or give the rule to the agent itself: an agent's hooks run only for the calls bound to it.
intern.before(function noDestructiveTools(ctx) {
  if (ctx.tool.destructive) ctx.block("interns cannot use destructive tools");
});

console.log((await hooks.invoke(sendEmail, {}, { agent: junior })).reason); // junior agents cannot use send_email
console.log((await hooks.invoke(webSearch, {}, { agent: junior, task: memo })).reason);
// no web search during sensitive tasks
console.log((await hooks.invoke(deleteFile, {}, { agent: intern })).reason); // interns cannot use destructive tools
console.log((await hooks.invoke(readFile, {}, { agent: junior, task: memo })).status); // ok
console.log(hooks.explain({ toolName: "read_file", agent: junior }).length); // 0: no hook in read_file's chain
