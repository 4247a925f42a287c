// snippet: packs-timeout-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { retry } from "@toolware/packs/retry";
import { ToolTimeoutError, timeout } from "@toolware/packs/timeout";

// Never settles; rejects with the abort reason when its signal aborts.
const hang = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

let calls = 0;
const flaky = defineTool({
  name: "flaky_search",
  execute: (_input: { query: string }, { signal }) => (++calls === 1 ? hang(signal) : Promise.resolve("results")),
});
const stuck = defineTool({ name: "stuck_search", execute: (_input: { query: string }, { signal }) => hang(signal) });

const hooks = new ToolHooks();
hooks.use(timeout({ ms: 1_000 })); // the whole call, retries included
hooks.use(retry({ retries: 5, minDelayMs: 100, jitter: "none" }));
hooks.use(timeout({ ms: 200 })); // each attempt
hooks.after((ctx) => console.log(ctx.toolName, ctx.status, "after", ctx.state.retry?.attempts, "attempts"));

await hooks.invoke(flaky, { query: "toolware" }); // flaky_search ok after 2 attempts: the first timed out at 200 ms
const outcome = await hooks.invoke(stuck, { query: "toolware" });
// stuck_search error after 3 attempts: attempts at 0, 300 and 700 ms; the total limit fires during the next pause
console.log(outcome.error instanceof ToolTimeoutError && outcome.error.timeoutMs); // 1000
