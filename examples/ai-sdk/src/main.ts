// `pnpm --filter @toolware/example-ai-sdk start`: offline, with the AI SDK's mock model.
import { runExample } from "./run.js";

await runExample((line) => console.log(line));
