// snippet: error-handling-6.ts
import { defineTool, ToolHooks } from "@toolware/core";

const reported: string[] = [];
const hooks = new ToolHooks({ onListenerError: (event, error) => reported.push(`${event}: ${String(error)}`) });

// Every hook failure is an event, whatever its policy: log it, count it, alert on it.
hooks.on("hook:error", ({ ctx, hook, phase, policy, error }) => {
  console.log(`[${ctx.callId}] ${hook.layer}/${hook.kind} ${hook.name} failed (${phase}, ${policy}): ${String(error)}`);
});
// A listener that throws (or rejects) never breaks the call: it goes to onListenerError.
hooks.on("call:end", () => {
  throw new Error("metrics backend down");
});

hooks.after(
  () => {
    throw new Error("formatter bug");
  },
  { name: "pretty", onError: "continue" },
);

const outcome = await hooks.invoke(defineTool({ name: "ping", execute: () => "pong" }), {});
// [… ] global/after pretty failed (after, continue): Error: formatter bug
console.log(outcome.status, outcome.result); // ok pong
console.log(outcome.trace); // [{ hook: "pretty", layer: "global", kind: "after", phase: "after", action: "failed", reason: "hook pretty failed: formatter bug", error: Error }]
console.log(reported); // ["call:end: Error: metrics backend down"]
