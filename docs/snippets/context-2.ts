// snippet: context-2.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const search = defineTool({
  name: "web_search",
  execute: (input: { query: string; domains?: string[] }) => `${input.query} in ${input.domains?.join("|") ?? "*"}`,
});

hooks.before(function normaliseQuery(ctx) {
  // ✅ mutate in place: the tool and every later hook see the change
  if (typeof ctx.toolInput.query === "string") ctx.toolInput.query = ctx.toolInput.query.trim().toLowerCase();
  ctx.toolInput.domains = ["edu", "gov", "org"];
});

hooks.before(function wrongApproach(ctx) {
  // ❌ replacing the object: a compile error, and a TypeError at run time:
  // "toolware: ctx.toolInput cannot be reassigned; mutate it in place instead (ctx.toolInput.key = value)"
  // @ts-expect-error toolInput is read-only
  if (ctx.toolName === "never") ctx.toolInput = { query: "new query" };
});

const input = { query: "  Onion Farming " };
const outcome = await hooks.invoke(search, input);
console.log(outcome.result); // onion farming in edu|gov|org
console.log(input); // { query: 'onion farming', domains: [ 'edu', 'gov', 'org' ] }: the caller's object, not a copy
console.log(outcome.trace.map((t) => t.action)); // ["modified-input", "proceeded"]
