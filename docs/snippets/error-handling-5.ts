// snippet: error-handling-5.ts
import { defineTool, ToolHooks } from "@toolware/core";

// No humanInput given: the terminal. In CI (stdin is not a TTY) asking fails...
const hooks = new ToolHooks();
hooks.before(async function requireApproval(ctx) {
  return (await ctx.requestHumanInput(`Approve ${ctx.toolName}?`)) === "yes";
});

const deleteFile = defineTool({ name: "delete_file", execute: () => "deleted" });
const outcome = await hooks.invoke(deleteFile, {});
// ...and the failing approval hook blocks the call, where CrewAI would run the tool.
console.log(outcome.status); // blocked
console.log(outcome.reason);
// hook requireApproval failed: toolware: cannot ask "Approve delete_file?": standard input is not a terminal (pass …)
console.log(outcome.error); // HumanInputUnavailableError: the error behind the block
