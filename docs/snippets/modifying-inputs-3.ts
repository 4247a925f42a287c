// snippet: modifying-inputs-3.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { queryRules, validate } from "@toolware/packs/validate";
import { z } from "zod";

const searchInput = z.object({ query: z.string(), limit: z.coerce.number().int().max(50).default(10) });
const search = defineTool({
  name: "web_search",
  execute: (input: z.infer<typeof searchInput>) => input,
});

const hooks = new ToolHooks();
// Registered first, so it runs first: trims, collapses spaces, and blocks queries under 3 characters.
hooks.use(queryRules({ tools: "web_search", minLength: 3, collapseWhitespace: true }));
// Then the schema: coerced values and defaults are written back in place, unknown keys deleted.
hooks.use(validate({ schemas: { web_search: searchInput } }));

// Arguments as a model sends them: JSON, with strings where numbers belong and keys nobody asked for.
const fromModel = JSON.parse('{"query":"  tool   hooks ","limit":"20","sessionToken":"abc"}');
console.log((await hooks.invoke(search, fromModel)).raw); // { query: 'tool hooks', limit: 20 }
console.log((await hooks.invoke(search, JSON.parse('{"query":"tool hooks"}'))).raw); // { query: 'tool hooks', limit: 10 }
console.log((await hooks.invoke(search, JSON.parse('{"query":"ai"}'))).reason);
// query is too short (at least 3 characters, got 2)
console.log((await hooks.invoke(search, JSON.parse('{"query":"tool hooks","limit":"500"}'))).reason);
// invalid input for web_search: limit: Too big: expected number to be <=50
