// snippet: integrations-3.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { debugLog } from "@toolware/packs/debug-log";

// The part of pino's logger API used here (console fits too): `pino()` can be passed as it is.
interface Logger {
  info(fields: object | string, message?: string): void;
  warn(fields: object | string, message?: string): void;
  error(fields: object | string, message?: string): void;
}
const line = (level: string) => (fields: object | string, message?: string) =>
  console.log(JSON.stringify(typeof fields === "string" ? { level, msg: fields } : { level, ...fields, msg: message }));
const logger: Logger = { info: line("info"), warn: line("warn"), error: line("error") };

const hooks = new ToolHooks();

// 1. The seed's sample, one line per call before the tool, to a structured logger.
hooks.before(
  function logToExternalSystem(ctx) {
    logger.info(
      { tool_name: ctx.toolName, tool_input: ctx.toolInput, agent: ctx.agent?.role ?? null },
      `Tool call: ${ctx.toolName}`,
    );
  },
  { onError: "continue" }, // an observer: a broken logger must not block calls
);

// 2. How every call ended, from the events: blocks, failures and durations included, whatever hook decided.
hooks.on("call:end", ({ ctx, outcome, durationMs }) => {
  const fields = { callId: ctx.callId, tool: ctx.toolName, status: outcome.status, reason: outcome.reason, durationMs };
  if (outcome.status === "ok") logger.info(fields, "tool call done");
  else logger.warn(fields, `tool call ${outcome.status}`);
});
hooks.on("hook:error", ({ hook, phase, policy, error }) =>
  logger.error({ hook: hook.name, phase, policy, error: String(error) }, "hook failed"),
);

// 3. Or the debug-log pack: start and end lines, previews, redaction, to the same logger.
hooks.use(
  debugLog({ logger, structured: true, logStart: false, redact: (text) => text.replaceAll(/sk-\w+/g, "[KEY]") }),
);

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
await hooks.invoke(search, { query: "toolware" }, { agent: new Agent({ role: "researcher" }) });
// {"level":"info","tool_name":"web_search","tool_input":{"query":"toolware"},"agent":"researcher","msg":"Tool call: web_search"}
// {"level":"info","event":"tool_result","callId":"…","tool":"web_search","agent":"researcher","durationMs":0.2,
//  "decision":"ok","result":"results for toolware","msg":"✅ […] web_search ok in 0.2ms | result: results for toolware"}
// {"level":"info","callId":"…","tool":"web_search","status":"ok","durationMs":1.3,"msg":"tool call done"}
