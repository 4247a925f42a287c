// snippet: packs-retry-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { type RetryState, retry } from "@toolware/packs/retry";

let failuresLeft = 2;
const flaky = defineTool({
  name: "flaky_api",
  execute: () => {
    if (failuresLeft-- > 0) throw new Error("connection reset");
    return "ok";
  },
});

const hooks = new ToolHooks();
// No jitter and a sleep that does not wait, so the numbers below are exact and the example runs at once.
hooks.use(retry({ retries: 3, minDelayMs: 100, jitter: "none", sleep: () => Promise.resolve() }));
hooks.before((ctx) => ctx.toolInput.skip !== true); // blocks calls marked { skip: true }
hooks.after((ctx) => {
  const state: RetryState | undefined = ctx.state.retry;
  console.log(state === undefined ? "no retry state" : { ...state, errors: state.errors.map(String) });
});

await hooks.invoke(flaky, {});
// { attempts: 3,                                         attempts started (1 when the first one succeeded)
//   errors: ["Error: connection reset", "Error: connection reset"],  each failed attempt's error, oldest first
//   delaysMs: [100, 200] }                               the pause before each retry
await hooks.invoke(flaky, {}); // { attempts: 1, errors: [], delaysMs: [] }
await hooks.invoke(flaky, { skip: true }); // "no retry state": the tool did not run
