// snippet: packs-validate-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { checkPath, queryRules, safePath, validate } from "@toolware/packs/validate";
import { z } from "zod";

const webSearch = defineTool({
  name: "web_search",
  execute: (input: { query: string; limit: number }) => `${input.limit} results for ${input.query}`,
});
const readFile = defineTool({ name: "read_file", execute: (input: { path: string }) => `contents of ${input.path}` });

const hooks = new ToolHooks();
// Sanitise first (trim, lower-case), then check the whole input against a schema, then the paths.
hooks.use(queryRules({ tools: "web_search", field: "query", minLength: 3, lowercase: true }));
hooks.use(
  validate({
    schemas: {
      web_search: z.object({ query: z.string(), limit: z.coerce.number().int().max(20).default(5) }),
      read_file: z.object({ path: z.string() }),
    },
  }),
);
hooks.use(safePath({ tools: "read_file", fields: ["path"], root: "/srv/workspace" }));

const input = { query: "  TypeScript ", limit: "7" };
await hooks.invoke(webSearch, input as never); // the tool receives { query: "typescript", limit: 7 }
console.log((await hooks.invoke(webSearch, { query: " ai ", limit: 5 })).reason);
// "query is too short (at least 3 characters, got 2)"
console.log((await hooks.invoke(readFile, { path: "..%2f..%2fetc/passwd" })).reason);
// 'invalid path in "path": parent-directory traversal (..)'

console.log(checkPath("notes/a.md", { root: "/srv/workspace" })); // { ok: true, resolved: "/srv/workspace/notes/a.md" }
console.log(checkPath("．．／etc", { root: "/srv/workspace" })); // { ok: false, reason: "parent-directory traversal (..)" }
