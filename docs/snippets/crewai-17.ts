// snippet: crewai-17.ts
import {
  defaultToolHooks,
  getAfterToolCallHooks,
  getBeforeToolCallHooks,
  registerAfterToolCallHook,
  registerBeforeToolCallHook,
} from "@toolware/core";

registerBeforeToolCallHook(function audit() {}, { priority: 10 });
registerAfterToolCallHook(function redact() {}, { tools: "read_*" });

// Get current hooks (copies: changing the arrays changes nothing)
const beforeHooks = getBeforeToolCallHooks();
const afterHooks = getAfterToolCallHooks();

console.log(`Registered: ${beforeHooks.length} before, ${afterHooks.length} after`); // Registered: 1 before, 1 after

// toolware can say more: names, kinds, layers, priorities, filters; and which hooks one call would run.
console.log(defaultToolHooks.list().map((h) => `${h.kind} ${h.name} p${h.priority}`)); // ["before audit p10", "after redact p0"]
console.log(defaultToolHooks.explain({ toolName: "web_search" }).map((h) => h.name)); // ["audit"]
