// snippet: modifying-inputs-1.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const search = defineTool({
  name: "web_search",
  execute: (input: { query: string; filters?: { lang: string; domains: string[] }; debug?: boolean }) => input,
});

// `tools: search` types ctx.toolInput with the tool's input type.
hooks.before(
  function normalise(ctx) {
    ctx.toolInput.query = ctx.toolInput.query.trim().toLowerCase(); // set a key
  },
  { tools: search },
);
hooks.before(
  function defaults(ctx) {
    Object.assign(ctx.toolInput, { filters: { lang: "en", domains: ["edu"] } }); // several keys at once
  },
  { tools: search },
);
hooks.before(
  function widen(ctx) {
    ctx.toolInput.filters?.domains.push("gov"); // nested objects and arrays count too
  },
  { tools: search },
);
hooks.before(
  function stripDebug(ctx) {
    delete ctx.toolInput.debug; // remove a key the agent should not set
  },
  { tools: search },
);
hooks.before(function show(ctx) {
  console.log(JSON.stringify(ctx.toolInput)); // each hook sees what the earlier ones left
});

const input = { query: "  Tool Hooks ", debug: true };
const outcome = await hooks.invoke(search, input);
// {"query":"tool hooks","filters":{"lang":"en","domains":["edu","gov"]}}
console.log(outcome.raw); // the tool received the same: { query: 'tool hooks', filters: { … } }
console.log(outcome.trace.map((t) => `${t.hook}: ${t.action}`));
// ["normalise: modified-input", "defaults: modified-input", "widen: modified-input",
//  "stripDebug: modified-input", "show: proceeded"]
console.log(input === outcome.raw); // true: the caller's own object was changed (pass { ...input } to keep yours)
