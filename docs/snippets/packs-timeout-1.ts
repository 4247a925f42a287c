// snippet: packs-timeout-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { ToolTimeoutError, timeout } from "@toolware/packs/timeout";

// A stand-in for a slow search backend: it answers after 5 s, unless its signal aborts first.
const search = defineTool({
  name: "web_search",
  execute: ({ query }: { query: string }, { signal }) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve(`results for ${query}`), 5_000);
      signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    }),
});

const hooks = new ToolHooks();
const limits = timeout({ ms: { default: 10_000, perTool: { web_search: 3_000 } } });
hooks.use(limits);

const outcome = await hooks.invoke(search, { query: "toolware" }); // ends after 3 s
if (outcome.error instanceof ToolTimeoutError) {
  // "gave up on web_search after 3000 ms"
  console.log(`gave up on ${outcome.error.toolName} after ${outcome.error.timeoutMs} ms`);
}
console.log(outcome.result); // "Tool execution failed. Tool: web_search. Error: web_search timed out after 3000 ms"
console.log(limits.limitFor("Web Search"), limits.limitFor("fetch_page")); // 3000 10000
