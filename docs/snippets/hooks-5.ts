// snippet: hooks-5.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const slowSearch = defineTool({
  name: "web_search",
  execute: ({ query }: { query: string }, { signal }) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve(`results for ${query}`), 5_000);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    }),
});

// linkSignal: the tool's signal now also aborts when this deadline passes.
hooks.before(function deadline(ctx) {
  ctx.linkSignal(AbortSignal.timeout(100));
});

// wrapExecution: bound the tool even if it ignores its signal; the rejection becomes the call's error.
hooks.before(function hardLimit(ctx) {
  ctx.wrapExecution((execute) =>
    Promise.race([
      execute(),
      new Promise((_, reject) => setTimeout(() => reject(new Error("gave up after 200 ms")), 200).unref()),
    ]),
  );
});

const outcome = await hooks.invoke(slowSearch, { query: "toolware" });
console.log(outcome.status, outcome.result);
// error Tool execution failed. Tool: web_search. Error: The operation was aborted due to timeout
