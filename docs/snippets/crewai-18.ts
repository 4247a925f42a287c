// snippet: crewai-18.ts
import { Agent, beforeToolCall, defaultToolHooks, defineTool, Task, type ToolCallHookContext } from "@toolware/core";

beforeToolCall(function conditionalBlocking(context: ToolCallHookContext): boolean | undefined {
  // Only block for specific agents
  if (context.agent && context.agent.role === "junior_agent") {
    if (["delete_file", "send_email"].includes(context.toolName)) {
      console.log(`❌ Junior agents cannot use ${context.toolName}`);
      return false;
    }
  }

  // Only block during specific tasks
  if (context.task?.description.toLowerCase().includes("sensitive")) {
    if (context.toolName === "web_search") {
      console.log("❌ Web search blocked for sensitive tasks");
      return false;
    }
  }

  return undefined;
});

const deleteFile = defineTool({ name: "delete_file", execute: () => "deleted" });
const search = defineTool({ name: "web_search", execute: () => "results" });
const junior = new Agent({ role: "junior_agent" });
const memo = new Task({ description: "Review the sensitive merger memo" });
console.log((await defaultToolHooks.invoke(deleteFile, {}, { agent: junior })).status); // ❌ Junior agents…, blocked
console.log((await defaultToolHooks.invoke(search, {}, { task: memo })).status); // ❌ Web search blocked…, blocked
console.log((await defaultToolHooks.invoke(deleteFile, {})).status); // ok
