// snippet: hooks-4.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
let attempts = 0;
const flaky = defineTool({
  name: "fetch_report",
  execute: () => {
    if (++attempts < 3) throw new Error(`upstream 503 (attempt ${attempts})`);
    return "report";
  },
});

// Retry the tool, not the chain: every other hook still runs once per call.
hooks.before(function retryTwice(ctx) {
  ctx.wrapExecution(async (execute, _ctx, signal) => {
    for (let attempt = 1; ; attempt++) {
      try {
        // Runs the tool once, with the input as the hooks left it; each attempt gets at most 5 s.
        return await execute(AbortSignal.timeout(5_000));
      } catch (error) {
        if (attempt === 3 || signal.aborted) throw error; // the tool's error becomes the call's error
      }
    }
  });
});

const outcome = await hooks.invoke(flaky, {});
console.log(outcome.status, outcome.result, attempts); // ok report 3
