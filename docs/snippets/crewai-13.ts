// snippet: crewai-13.ts
import { createHash } from "node:crypto";
import { afterToolCall, beforeToolCall, defaultToolHooks, defineTool, type ToolInput } from "@toolware/core";

const toolCache = new Map<string, unknown>();

/** Generate cache key from tool name and input (keys sorted, like json.dumps(sort_keys=True)). */
function cacheKey(toolName: string, toolInput: ToolInput): string {
  const inputStr = JSON.stringify(Object.fromEntries(Object.entries(toolInput).sort()));
  return createHash("md5").update(`${toolName}:${inputStr}`).digest("hex");
}

beforeToolCall(function checkCache(context) {
  const key = cacheKey(context.toolName, context.toolInput);
  if (toolCache.has(key)) {
    console.log(`💾 Cache hit for ${context.toolName}`);
    // The seed stops here ("Can't return cached result from before hook"). toolware can:
    context.respond(toolCache.get(key)); // the tool does not run
  }
  return undefined;
});

afterToolCall(function cacheResult(context) {
  // Real results only: not a cache hit, a blocked call or an error message.
  if (context.status === "ok" && context.toolRan) {
    toolCache.set(cacheKey(context.toolName, context.toolInput), context.rawToolResult);
    console.log(`💾 Cached result for ${context.toolName}`);
  }
  return undefined;
});

let runs = 0;
const weather = defineTool({
  name: "get_weather",
  execute: ({ city }: { city: string }) => `${++runs}: sunny in ${city}`,
});
console.log((await defaultToolHooks.invoke(weather, { city: "Paris" })).result); // 💾 Cached result…, then: 1: sunny in Paris
console.log((await defaultToolHooks.invoke(weather, { city: "Paris" })).result); // 💾 Cache hit…, then: 1: sunny in Paris
