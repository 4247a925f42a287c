// `pnpm demo` (add `-- --interactive` to answer the approval prompts yourself).
import { terminalOutput } from "./render.js";
import { runDemo } from "./run-demo.js";

const interactive = process.argv.includes("--interactive");
if (interactive && process.stdin.isTTY !== true) {
  console.error("--interactive needs a terminal: run `pnpm demo -- --interactive` in one.");
  process.exit(2);
}
await runDemo({ interactive, out: terminalOutput() });
// The terminal provider keeps stdin open while it waits; the demo is over.
process.exit(0);
