// snippet: crewai-03.ts
import { defaultToolHooks, defineTool, registerBeforeToolCallHook, type ToolCallHookContext } from "@toolware/core";

// ✅ Correct - modify in place
function sanitizeInput(context: ToolCallHookContext): void {
  context.toolInput.query = String(context.toolInput.query).toLowerCase();
}

// ❌ Wrong - replaces the object: a compile error in TypeScript, and a TypeError at run time
function wrongApproach(context: ToolCallHookContext): void {
  // @ts-expect-error toolInput is read-only
  context.toolInput = { query: "new query" };
}

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });

registerBeforeToolCallHook(sanitizeInput);
console.log((await defaultToolHooks.invoke(search, { query: "CrewAI" })).result); // results for crewai

// CrewAI silently ignores the replacement; toolware fails the hook, which blocks the call by default.
registerBeforeToolCallHook(wrongApproach);
console.log((await defaultToolHooks.invoke(search, { query: "CrewAI" })).reason);
// hook wrongApproach failed: toolware: ctx.toolInput cannot be reassigned; mutate it in place instead (ctx.toolInput.key = value)
