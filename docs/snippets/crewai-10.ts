// snippet: crewai-10.ts
import { afterToolCall, defaultToolHooks, defineTool, type ToolCallHookContext } from "@toolware/core";

// The seed's patterns, compiled once instead of on every call ([A-Z|a-z] also matches "|": kept as in the seed).
const API_KEYS = /(api[_-]?key|token)["']?\s*[:=]\s*["']?[\w-]+/gi;
const EMAILS = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b/g;
const CARDS = /\b\d{4}[- ]?\d{4}[- ]?\d{4}[- ]?\d{4}\b/g;

afterToolCall(function sanitizeSensitiveData(context: ToolCallHookContext): string | undefined {
  if (!context.toolResult) return undefined;

  let result = context.toolResult;
  // Remove API keys
  result = result.replace(API_KEYS, "$1: [REDACTED]");
  // Remove email addresses
  result = result.replace(EMAILS, "[EMAIL-REDACTED]");
  // Remove credit card numbers
  result = result.replace(CARDS, "[CARD-REDACTED]");
  return result;
});

const fetchUser = defineTool({
  name: "fetch_user",
  execute: () => "api_key=abc123 mail bob@example.com card 4111 1111 1111 1111",
});
const outcome = await defaultToolHooks.invoke(fetchUser, {});
console.log(outcome.result); // api_key: [REDACTED] mail [EMAIL-REDACTED] card [CARD-REDACTED]
console.log(outcome.raw); // api_key=abc123 mail bob@example.com card 4111 1111 1111 1111 (never changed)
