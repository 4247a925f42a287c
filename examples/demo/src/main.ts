// `pnpm demo` (add `-- --interactive` to answer the approval prompts yourself, `-- --ai-sdk` to run
// the crew in the AI SDK's loop: a real model with OPENAI_API_KEY set, its mock model without).
import { pickModel } from "./ai-sdk-model.js";
import { terminalOutput } from "./render.js";
import { runDemo } from "./run-demo.js";

const interactive = process.argv.includes("--interactive");
if (interactive && process.stdin.isTTY !== true) {
  console.error("--interactive needs a terminal: run `pnpm demo -- --interactive` in one.");
  process.exit(2);
}
const aiSdk = process.argv.includes("--ai-sdk") ? pickModel(process.env) : undefined;
await runDemo({ interactive, out: terminalOutput(), ...(aiSdk === undefined ? {} : { aiSdk }) });
// The terminal provider keeps stdin open while it waits; the demo is over.
process.exit(0);
