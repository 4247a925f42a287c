// `pnpm --filter @toolware/example-inbox start`: offline, with the AI SDK's mock model and an inbox on loopback.
import { runExample } from "./run.js";

await runExample((line) => console.log(line));
