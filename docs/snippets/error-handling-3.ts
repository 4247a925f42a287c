// snippet: error-handling-3.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const slowTool = defineTool({ name: "slow_report", execute: () => sleep(300).then(() => "report") });

// An async hook is bounded by a timer: after 50 ms it fails with HookTimeoutError (and its policy applies).
hooks.before(
  async function lookupPermissions() {
    await sleep(1_000);
  },
  { timeoutMs: 50, tools: "web_*" },
);

// A middleware's own time is bounded, not the tool's: the 300 ms spent inside next() do not count.
hooks.use(
  async function auditTrail(ctx, next) {
    await sleep(10); // counts
    await next(); // does not count
    await sleep(10); // counts
    console.log(`${ctx.toolName}: ${ctx.status}`);
  },
  { timeoutMs: 100 },
);

const outcome = await hooks.invoke(slowTool, {});
console.log(outcome.status, outcome.result); // ok report

const search = defineTool({ name: "web_search", execute: () => "results" });
console.log((await hooks.invoke(search, {})).reason);
// hook lookupPermissions failed: toolware: hook lookupPermissions timed out after 50 ms
