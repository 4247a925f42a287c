// snippet: crewai-25.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const tool = (name: string) => defineTool({ name, execute: () => `${name} ran` });

// Async hooks are awaited, so an async check can block. (CrewAI never awaits an async hook: it cannot block.)
hooks.before(async function opsOnly(ctx) {
  const owner = await Promise.resolve("ops"); // a database lookup, say
  if (ctx.toolName === "restart_server" && ctx.agent?.role !== owner) ctx.block("only the ops agent restarts servers");
});

// A hook that throws blocks the call: fail closed. (CrewAI prints the error in verbose mode and runs the tool.)
hooks.before(function policyService(ctx) {
  if (ctx.toolName === "charge_card") throw new Error("policy service unreachable");
});

// Observers choose fail-open, per hook.
hooks.after(
  function metrics() {
    throw new Error("statsd down");
  },
  { onError: "continue" },
);

const restart = await hooks.invoke(tool("restart_server"), {});
console.log(restart.result); // Tool execution blocked by hook. Tool: restart_server. Reason: only the ops agent restarts servers
const charge = await hooks.invoke(tool("charge_card"), {});
console.log(charge.status, charge.reason); // blocked hook policyService failed: policy service unreachable
const search = await hooks.invoke(tool("web_search"), {});
console.log(
  search.status,
  search.trace.map((t) => `${t.hook}: ${t.action}`),
);
// ok ["opsOnly: proceeded", "policyService: proceeded", "metrics: failed"]
