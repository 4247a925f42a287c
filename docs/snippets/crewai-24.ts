// snippet: crewai-24.ts
import { Agent, beforeToolCall, defaultToolHooks, defineTool, type ToolCallHookContext } from "@toolware/core";

// Python's logging.getLogger(__name__): any logger with info(message, fields) fits; console does.
const logger = { info: (message: string, extra: object) => console.info(message, JSON.stringify(extra)) };

beforeToolCall(function logToExternalSystem(context: ToolCallHookContext) {
  logger.info(`Tool call: ${context.toolName}`, {
    tool_name: context.toolName,
    tool_input: context.toolInput,
    agent: context.agent ? context.agent.role : null,
  });
  return undefined;
});

const search = defineTool({ name: "web_search", execute: () => "results" });
await defaultToolHooks.invoke(search, { query: "toolware" }, { agent: new Agent({ role: "researcher" }) });
// Tool call: web_search {"tool_name":"web_search","tool_input":{"query":"toolware"},"agent":"researcher"}
