// snippet: hooks-2.ts
import { type AfterToolCallHookType, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const lookup = defineTool({
  name: "lookup_user",
  execute: () => ({ name: "Ada", email: "ada@example.com", apiKey: "sk-12345" }),
});

// After-hooks of one layer run in registration order, each seeing what the previous one left.

// A returned string replaces ctx.toolResult.
const redactEmails: AfterToolCallHookType = (ctx) =>
  ctx.toolResult?.replace(/\b[\w.%+-]+@[\w.-]+\.[a-z]{2,}\b/gi, "[EMAIL-REDACTED]");
hooks.after(redactEmails, { name: "redactEmails" });

// ctx.block() on the way out withholds the result: the agent gets the blocked message instead.
hooks.after(function noSecrets(ctx) {
  if (ctx.toolResult?.includes("sk-")) ctx.block("the result contained an API key");
});

// Returning nothing keeps the current result (so does any other non-string, but that is reported).
hooks.after(function logCalls(ctx) {
  console.log(`${ctx.toolName} -> ${ctx.status}`);
});

const outcome = await hooks.invoke(lookup, {});
// lookup_user -> blocked
console.log(outcome.result); // Tool execution blocked by hook. Tool: lookup_user. Reason: the result contained an API key
console.log(outcome.raw); // undefined: a withheld result is not handed out
console.log(outcome.trace.map((t) => `${t.hook}: ${t.action}`));
// ["redactEmails: modified-result", "noSecrets: blocked", "logCalls: proceeded"]
