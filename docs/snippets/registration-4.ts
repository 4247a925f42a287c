// snippet: registration-4.ts
import {
  type AfterToolCallHookType,
  type BeforeToolCallHookType,
  clearAfterToolCallHooks,
  clearAllToolCallHooks,
  clearBeforeToolCallHooks,
  defaultToolHooks,
  defineTool,
  getAfterToolCallHooks,
  getBeforeToolCallHooks,
  registerAfterToolCallHook,
  registerBeforeToolCallHook,
  unregisterAfterToolCallHook,
  unregisterBeforeToolCallHook,
} from "@toolware/core";

// The CrewAI function API, camelCased, on the process-wide `defaultToolHooks` instance.
const logToolCall: BeforeToolCallHookType = (ctx) => {
  console.log(`Tool: ${ctx.toolName}`);
  console.log(`Input: ${JSON.stringify(ctx.toolInput)}`);
  return undefined; // allow execution
};
const redact: AfterToolCallHookType = (ctx) => ctx.toolResult?.replaceAll("password", "[REDACTED]");

registerBeforeToolCallHook(logToolCall); // returns an unregister function, like hooks.before()
registerAfterToolCallHook(redact, { tools: "read_*" }); // takes the same options

console.log(`Registered: ${getBeforeToolCallHooks().length} before, ${getAfterToolCallHooks().length} after`); // 1, 1

const readFile = defineTool({ name: "read_file", execute: () => "password=hunter2" });
console.log((await defaultToolHooks.invoke(readFile, {})).result); // [REDACTED]=hunter2

console.log(`Unregistered: ${unregisterBeforeToolCallHook(logToolCall)}`); // true
console.log(unregisterAfterToolCallHook(redact)); // true
console.log(clearBeforeToolCallHooks(), clearAfterToolCallHooks()); // 0 0

// In tests: start from a clean default instance.
const [beforeCount, afterCount] = clearAllToolCallHooks();
console.log(`Cleared ${beforeCount} before and ${afterCount} after hooks`); // middlewares go too, uncounted
