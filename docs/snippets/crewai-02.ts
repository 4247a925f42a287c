// snippet: crewai-02.ts
import { Agent, Crew, defineTool, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";

// CrewAI's fields, camelCased:
//   toolName: string                        name of the tool being called
//   toolInput: Record<string, unknown>      mutable tool input parameters (mutate in place)
//   tool: Tool                              the tool (name, description, tags, destructive, execute, formatResult)
//   agent: Agent | undefined                agent executing the tool
//   task: Task | undefined                  current task
//   crew: Crew | undefined                  crew of the call
//   toolResult: string | undefined          agent-facing result string (after the tool)
//   rawToolResult: unknown                  raw result, as the tool returned it (after the tool)
// toolware adds callId, state, signal, status, blockReason, toolRan, trace, error,
// block(), respond(), requestHumanInput(), linkSignal() and wrapExecution().
function show(context: ToolCallHookContext): void {
  const { toolName, toolInput, tool, agent, task, crew, toolResult, rawToolResult } = context;
  console.log(
    toolName,
    toolInput,
    tool.description,
    agent?.role,
    task?.description,
    crew?.name,
    toolResult,
    rawToolResult,
  );
}

const hooks = new ToolHooks();
hooks.before(show);
hooks.after(show);

const getUser = defineTool({
  name: "get_user",
  description: "Looks up a user",
  execute: ({ id }: { id: number }) => ({ id, name: "Ada" }),
});
const researcher = new Agent({ role: "researcher" });
const task = new Task({ description: "Find Ada" });
const crew = new Crew({ name: "directory", agents: [researcher], tasks: [task] });
await hooks.invoke(getUser, { id: 1 }, { agent: researcher, task, crew });
// get_user { id: 1 } Looks up a user researcher Find Ada directory undefined undefined
// get_user { id: 1 } Looks up a user researcher Find Ada directory {"id":1,"name":"Ada"} { id: 1, name: 'Ada' }
