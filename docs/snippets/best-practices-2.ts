// snippet: best-practices-2.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks({ timing: true }); // durations in the trace, while you measure
const query = defineTool({ name: "db_query", execute: ({ sql }: { sql: string }) => `rows for ${sql}` });
const policyService = { isAllowed: async (tool: string) => !tool.startsWith("db_drop") }; // a remote call, say

// ✅ Compile patterns (and schemas) once, outside the hook.
const WRITE = /\b(insert|update|delete|drop|alter)\b/i;

// ✅ A static filter is decided once per chain: tools that do not match never pay for the hook.
// ❌ `tools: (ctx) => ctx.toolName.startsWith("db_")` would call a function on every call of every tool.
// ✅ A sync hook, like this one, allocates no promise.
hooks.before(
  function readOnly(ctx) {
    if (WRITE.test(String(ctx.toolInput.sql))) ctx.block("db tools are read-only here");
  },
  { tools: "db_*" },
);
// ✅ Cache expensive checks, and bound them: a hook that hangs holds the call.
const verdicts = new Map<string, boolean>();
hooks.before(
  async function allowedByPolicy(ctx) {
    let allowed = verdicts.get(ctx.toolName);
    if (allowed === undefined) {
      allowed = await policyService.isAllowed(ctx.toolName);
      verdicts.set(ctx.toolName, allowed);
    }
    if (!allowed) ctx.block(`${ctx.toolName} is not allowed by the policy service`);
  },
  { timeoutMs: 500 },
);

const outcome = await hooks.invoke(query, { sql: "select * from orders" });
console.log(outcome.trace.map((t) => `${t.hook} ${t.durationMs?.toFixed(3)} ms`)); // ["readOnly 0.010 ms", …] (timings vary)
console.log((await hooks.invoke(query, { sql: "drop table orders" })).reason); // db tools are read-only here
