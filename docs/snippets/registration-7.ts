// snippet: registration-7.ts
import { Agent, Crew, defineTool, Task, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks(); // the global layer: every call made with hooks.invoke()
const junior = new Agent({ role: "junior_agent", goal: "tidy the inbox" }); // an agent layer
const senior = new Agent({ role: "senior_agent" });
const cleanup = new Task({ description: "Delete sensitive drafts", agent: junior }); // no layer: hooks read it
const crew = new Crew({ name: "inbox", agents: [junior, senior], tasks: [cleanup] }); // a crew layer

const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });

// Agent, Crew and ToolHooks share the registration API: use, before, after, remove, clear, list, on/once/off.
junior.before((ctx) => !ctx.tool.destructive, { name: "juniorsDoNotDestroy" });
crew.before((ctx) => !ctx.task?.description.toLowerCase().includes("sensitive") || ctx.toolName !== "web_search");
hooks.after((ctx) => `${ctx.toolResult} [${ctx.agent?.role ?? "no agent"}]`);

// The bindings decide which layers a call runs: global, plus the crew and the agent when given.
console.log((await hooks.invoke(deleteFile, {}, { agent: junior, task: cleanup, crew })).status); // blocked
console.log((await hooks.invoke(deleteFile, {}, { agent: senior, task: cleanup, crew })).result); // deleted [senior_agent]
