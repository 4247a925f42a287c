// snippet: crewai-12.ts
import { beforeToolCall, defaultToolHooks, defineTool, type ToolCallHookContext } from "@toolware/core";

const toolCallHistory = new Map<string, number[]>();

beforeToolCall(function rateLimitTools(context: ToolCallHookContext) {
  const toolName = context.toolName;
  const now = Date.now();

  // Clean old entries (older than 1 minute)
  const recent = (toolCallHistory.get(toolName) ?? []).filter((callTime) => now - callTime < 60_000);
  toolCallHistory.set(toolName, recent);

  // Check rate limit (max 10 calls per minute)
  if (recent.length >= 10) {
    console.log(`🚫 Rate limit exceeded for ${toolName}`);
    // `return false` works as in CrewAI; a reason also tells the agent why.
    context.block(`rate limit exceeded for ${toolName}: at most 10 calls per minute`);
    return undefined;
  }

  // Record this call
  recent.push(now);
  return undefined;
});

const search = defineTool({ name: "web_search", execute: () => "results" });
for (let i = 0; i < 10; i++) await defaultToolHooks.invoke(search, {});
console.log((await defaultToolHooks.invoke(search, {})).result);
// 🚫 Rate limit exceeded for web_search
// Tool execution blocked by hook. Tool: web_search. Reason: rate limit exceeded for web_search: at most 10 calls per minute
