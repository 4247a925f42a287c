// snippet: crewai-15.ts
import {
  registerBeforeToolCallHook,
  type ToolCallHookContext,
  unregisterAfterToolCallHook,
  unregisterBeforeToolCallHook,
} from "@toolware/core";

// Unregister specific hook
function myHook(context: ToolCallHookContext) {
  console.log(context.toolName);
}

registerBeforeToolCallHook(myHook);
// Later...
const success = unregisterBeforeToolCallHook(myHook);
console.log(`Unregistered: ${success}`); // Unregistered: true
console.log(unregisterAfterToolCallHook(myHook)); // false: it was never an after-hook

// toolware also hands back a handle that removes exactly that registration.
const off = registerBeforeToolCallHook(myHook, { tools: "web_*" });
console.log(off(), off()); // true false (filtered hooks can be removed too, unlike CrewAI's filtered decorators)
