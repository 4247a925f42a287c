// snippet: observability-2.ts
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";
import { debugLog } from "@toolware/packs/debug-log";
import { redactText } from "@toolware/packs/redact";
import pino from "pino";

const hooks = new ToolHooks();
// pino as it comes: one JSON line per call, written when the call ends.
hooks.use(debugLog({ logger: pino(), structured: true, logStart: false, redact: (text) => redactText(text) }));
hooks.before(function guard(ctx) {
  if (ctx.tool.destructive) ctx.block("destructive tools are disabled");
});

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });
const bindings = { agent: new Agent({ role: "researcher" }), task: new Task({ description: "Survey tool hooks" }) };
await hooks.invoke(search, { query: "toolware" }, bindings);
await hooks.invoke(deleteFile, { path: "notes.md" }, bindings);
// {"level":30,"time":1772446500000,"pid":4242,"hostname":"build-1","event":"tool_result","callId":"k3x9q1-00",
//  "tool":"web_search","agent":"researcher","task":"Survey tool hooks","status":"ok","durationMs":0.1,"hooks":[],
//  "decision":"ok","result":"results for toolware","msg":"✅ [k3x9q1-00] web_search ok in 0.1ms | result: …"}
// {"level":40,"time":1772446500001,"pid":4242,"hostname":"build-1","event":"tool_result","callId":"k3x9q1-01",
//  "tool":"delete_file","agent":"researcher","task":"Survey tool hooks","status":"blocked","durationMs":0,
//  "hooks":[{"hook":"guard","layer":"global","phase":"before","action":"blocked",
//  "reason":"destructive tools are disabled"}],"decision":"blocked","reason":"destructive tools are disabled",
//  "msg":"⛔ [k3x9q1-01] delete_file blocked in 0ms | reason: destructive tools are disabled"}
// (times, ids, pid and hostname vary)
