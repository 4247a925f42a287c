// snippet: error-handling-1.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const writeFile = defineTool({
  name: "write_file",
  execute: async () => {
    throw new Error("disk full");
  },
});

hooks.after(function explainFailures(ctx) {
  // After-hooks run for failed calls too: ctx.error holds what the tool threw.
  if (ctx.status === "error") return `${ctx.toolResult}. Try a smaller file.`;
});

const outcome = await hooks.invoke(writeFile, {}); // resolves: a failing tool does not make invoke reject
console.log(outcome.status); // error
console.log(outcome.result); // Tool execution failed. Tool: write_file. Error: disk full. Try a smaller file.
console.log(outcome.error instanceof Error && outcome.error.message, outcome.raw); // disk full undefined
