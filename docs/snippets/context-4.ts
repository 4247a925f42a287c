// snippet: context-4.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const readFile = defineTool({
  name: "read_file",
  execute: async ({ path }: { path: string }) => ({ path, bytes: 1024 }),
});

// Passing the tool object as `tools` types ctx with the tool's input and output.
hooks.before(
  (ctx) => {
    const path = ctx.toolInput.path; // string
    if (path.includes("..") || path.startsWith("/")) ctx.block("only relative paths inside the workspace");
  },
  { tools: readFile, name: "safePaths" },
);
hooks.after(
  (ctx) => {
    const bytes = ctx.rawToolResult?.bytes; // number | undefined
    return bytes === undefined ? undefined : `${ctx.toolInput.path}: ${bytes} bytes`;
  },
  { tools: readFile, name: "summarise" },
);

console.log((await hooks.invoke(readFile, { path: "notes.md" })).result); // notes.md: 1024 bytes
console.log((await hooks.invoke(readFile, { path: "../secrets" })).status); // blocked
