// snippet: registration-9.ts
import { Agent, defineTool, ToolHooks, toolwareCode } from "@toolware/core";

const hooks = new ToolHooks();
const junior = new Agent({ role: "junior_agent" });
hooks.before((ctx) => ctx.agent?.role !== "junior_agent" || !ctx.tool.destructive);

const deleteFile = defineTool({
  name: "delete_file",
  description: "Deletes a file",
  destructive: true,
  execute: ({ path }: { path: string }) => `deleted ${path}`,
});

// invoke(): the whole outcome. It does not reject for failing tools or hooks (only for "throw" hooks).
const controller = new AbortController();
const outcome = await hooks.invoke(deleteFile, { path: "a.txt" }, { agent: junior, signal: controller.signal });
console.log(outcome.status, outcome.result, outcome.callId); // blocked Tool execution blocked by hook. Tool: delete_file …

// wrap(): a tool of the same shape whose execute() runs the chain and resolves to the agent-facing string,
// for agent frameworks that expect a tool. Bindings given here apply to every call.
const guarded = hooks.wrap(deleteFile, { agent: junior });
console.log(await guarded.execute({ path: "a.txt" })); // Tool execution blocked by hook. Tool: delete_file
console.log(await guarded.execute({ path: "a.txt" }, { signal: controller.signal, callId: "ignored" })); // the same

// A misspelt binding is refused, never run without the agent: the guard above would not see it.
const error = await hooks.invoke(deleteFile, { path: "a.txt" }, { agnet: junior } as never).catch((e: Error) => e);
console.log(error instanceof TypeError, toolwareCode(error)); // true TOOLWARE_UNKNOWN_OPTION
// toolware: invoke(): unknown binding `agnet` (did you mean `agent`? expected one of: agent, task, crew, signal)
