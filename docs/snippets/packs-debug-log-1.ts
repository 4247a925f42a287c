// snippet: packs-debug-log-1.ts
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";
import { type DebugLogFields, type DebugLogger, debugLog } from "@toolware/packs/debug-log";

const search = defineTool({
  name: "web_search",
  execute: async ({ query }: { query: string; apiKey: string }) => `results for ${query}`,
});

// A JSON-lines logger in pino's shape: `pino()` itself fits here (or winston, or `console`, the default).
const line =
  (level: number) =>
  (first: string | DebugLogFields, msg?: string): void =>
    console.log(JSON.stringify(typeof first === "string" ? { level, msg: first } : { level, ...first, msg }));
const logger: DebugLogger = { info: line(30), warn: line(40), error: line(50) };

const hooks = new ToolHooks();
hooks.use(
  debugLog({
    logger,
    structured: true,
    redact: (text) => text.replaceAll(/sk-[A-Za-z0-9]+/g, "[REDACTED]"),
  }),
);
await hooks.invoke(
  search,
  { query: "toolware", apiKey: "sk-4f9a8b7c6d5e" },
  {
    agent: new Agent({ role: "researcher" }),
    task: new Task({ description: "Find papers on tool-call hooks" }),
  },
);
// {"level":30,"event":"tool_call","callId":"5p6w09-00","tool":"web_search","agent":"researcher",
//  "task":"Find papers on tool-call hooks","input":"{\"query\":\"toolware\",\"apiKey\":\"[REDACTED]\"}",
//  "msg":"🔍 [5p6w09-00] web_search called | agent: researcher | …"}
// {"level":30,"event":"tool_result","callId":"5p6w09-00","tool":"web_search","agent":"researcher",
//  "task":"Find papers on tool-call hooks","status":"ok","durationMs":0.4,"hooks":[],
//  "decision":"ok","result":"results for toolware",
//  "msg":"✅ [5p6w09-00] web_search ok in 0.4ms | result: results for toolware"}
// (call ids and durations vary from run to run)
