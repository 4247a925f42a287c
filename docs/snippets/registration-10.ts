// snippet: registration-10.ts
import { Crew, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();

const stop = hooks.on("call:end", ({ ctx, outcome, durationMs }) => {
  console.log(`${ctx.toolName} ${outcome.status} in ${durationMs.toFixed(1)} ms`);
});
hooks.on("call:blocked", ({ outcome, reason }) => console.log(`blocked ${outcome.toolName}: ${reason ?? "-"}`));
hooks.on("call:error", ({ error, outcome }) => console.log(`failed: ${String(error)} (outcome: ${outcome?.status})`));
hooks.on("hook:error", ({ hook, phase, policy, error }) =>
  console.log(`${hook.name} failed ${phase}, ${policy}`, error),
);
hooks.once("call:start", ({ ctx }) => console.log(`first call: ${ctx.toolName} ${ctx.callId}`));
hooks.on("hook:added", (info) => console.log(`added ${info.kind} ${info.name}`));

// Each layer emits its own hook:added / hook:removed.
const crew = new Crew();
crew.on("hook:removed", (info) => console.log(`crew lost ${info.name}`));

hooks.before((ctx) => ctx.toolName !== "rm_rf", { name: "noRm" }); // added before noRm
await hooks.invoke(defineTool({ name: "rm_rf", execute: () => "gone" }), {});
// first call: rm_rf …   blocked rm_rf: -   rm_rf blocked in 0.1 ms

stop(); // or hooks.off("call:end", listener) with the same function
