// snippet: registration-2.ts
import { defineTool, normalizeName, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });

// use / before / after take the same options, and each returns a function that unregisters the hook.
const off = hooks.before((ctx) => ctx.agent?.role !== "junior_agent", {
  // In traces, errors, list() and explain(). Default: the function's name, else "before#<n>".
  name: "noJuniors",
  // Higher runs further out: earlier on the way in, later on the way out. Default 0.
  priority: 10,
  // Names are normalised: "Delete File" matches delete_file.
  tools: ["Delete File", "drop_*", /^rm_/],
  // Matched against agent.role, normalised too. A call without an agent skips the hook.
  agents: "junior agent",
  // Overrides the instance's onHookError for this hook.
  onError: "block",
  // Bounds the hook's own run.
  timeoutMs: 500,
});
console.log(off()); // true: removed; a second call returns false

// The filter forms:
hooks.after((ctx) => ctx.toolResult, { tools: "delete_file" }); // an exact name
hooks.after((ctx) => ctx.toolResult, { tools: "db_*" }); // a glob: * and ? over normalised names
hooks.after((ctx) => ctx.toolResult, { tools: /^(read|write)_/i }); // a RegExp, tried on the raw and the normalised name
hooks.after((ctx) => ctx.toolResult, { tools: [deleteFile, "rm_rf"] }); // a list: any entry may match; tools by name
hooks.after((ctx) => ctx.toolResult, { tools: (ctx) => ctx.tool.destructive }); // a predicate, run on every call

console.log(normalizeName("Delete File"), normalizeName("deleteFile"), normalizeName("fetchURLContent"));
// delete_file delete_file fetch_url_content
