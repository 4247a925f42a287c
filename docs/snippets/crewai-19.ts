// snippet: crewai-19.ts
import { Agent, beforeToolCall, defaultToolHooks, defineTool, Task, type ToolCallHookContext } from "@toolware/core";

beforeToolCall(function enhanceToolInputs(context: ToolCallHookContext) {
  // Add context based on agent role
  if (context.agent && context.agent.role === "researcher") {
    if (context.toolName === "web_search") {
      // Add domain restrictions for researchers
      context.toolInput.domains = ["edu", "gov", "org"];
    }
  }

  // Add context based on task
  if (context.task?.description.toLowerCase().includes("urgent")) {
    if (context.toolName === "send_email") {
      context.toolInput.priority = "high";
    }
  }

  return undefined;
});

const search = defineTool({ name: "web_search", execute: (input: { query: string; domains?: string[] }) => input });
const sendEmail = defineTool({ name: "send_email", execute: (input: { to: string; priority?: string }) => input });
const researcher = new Agent({ role: "researcher" });
const urgent = new Task({ description: "URGENT: tell the team the build is broken" });
console.log((await defaultToolHooks.invoke(search, { query: "llm evals" }, { agent: researcher })).raw);
// { query: 'llm evals', domains: [ 'edu', 'gov', 'org' ] }
console.log((await defaultToolHooks.invoke(sendEmail, { to: "team@example.com" }, { task: urgent })).raw);
// { to: 'team@example.com', priority: 'high' }
