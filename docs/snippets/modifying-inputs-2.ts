// snippet: modifying-inputs-2.ts
import { defineTool, type ToolCallHookContext, ToolHooks, type ToolInput } from "@toolware/core";

const hooks = new ToolHooks();
const search = defineTool({ name: "web_search", execute: (input: { query: string; page?: number }) => input });

// ✅ Correct - modify in place
function sanitizeInput(ctx: ToolCallHookContext): void {
  ctx.toolInput.query = String(ctx.toolInput.query).toLowerCase();
}

// ❌ Wrong - replaces the object. TypeScript rejects it; in JavaScript it throws a TypeError, so the hook fails.
function wrongApproach(ctx: ToolCallHookContext): void {
  // @ts-expect-error toolInput is read-only
  ctx.toolInput = { query: "new query" };
}

// ✅ To really replace everything, empty the object and fill it again.
function replaceInput(input: ToolInput, next: ToolInput): void {
  for (const key of Object.keys(input)) delete input[key];
  Object.assign(input, next);
}

hooks.before(sanitizeInput);
console.log((await hooks.invoke(search, { query: "CrewAI" })).raw); // { query: 'crewai' }

const off = hooks.before(wrongApproach);
const outcome = await hooks.invoke(search, { query: "CrewAI" });
console.log(outcome.status); // blocked: a failing hook blocks by default, instead of being silently ignored
off();

hooks.before((ctx) => replaceInput(ctx.toolInput, { query: "new query" }));
console.log((await hooks.invoke(search, { query: "CrewAI", page: 2 })).raw); // { query: 'new query' }
