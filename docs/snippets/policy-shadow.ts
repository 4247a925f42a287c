// snippet: policy-shadow.ts
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";

// Week 1: the new file decides every call, counts and reports what it would block, and blocks nothing.
const policy = await loadPolicy("toolware.policy.yaml", {
  mode: "shadow",
  onEvent: (event) => {
    if (event.type === "shadow") console.log(`would ${event.effect} ${event.toolName}: rule ${event.rule}`);
  },
});
new ToolHooks().use(policy);
// Later: read what it would have done, rule by rule, then drop `mode` (or set `mode: enforce` in the file).
for (const [rule, c] of Object.entries(policy.counters().rules)) console.log(rule, c.shadowDenied, c.shadowAsked);
