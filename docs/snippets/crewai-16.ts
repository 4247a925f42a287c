// snippet: crewai-16.ts
import {
  clearAfterToolCallHooks,
  clearAllToolCallHooks,
  clearBeforeToolCallHooks,
  registerAfterToolCallHook,
  registerBeforeToolCallHook,
} from "@toolware/core";

registerBeforeToolCallHook(() => undefined);
registerBeforeToolCallHook(() => undefined);
registerAfterToolCallHook(() => undefined);

// Clear specific hook type
const count = clearBeforeToolCallHooks();
console.log(`Cleared ${count} before hooks`); // Cleared 2 before hooks

registerBeforeToolCallHook(() => undefined);
registerAfterToolCallHook(() => undefined);

// Clear all tool hooks (the middlewares of defaultToolHooks go too, uncounted)
const [beforeCount, afterCount] = clearAllToolCallHooks();
console.log(`Cleared ${beforeCount} before and ${afterCount} after hooks`); // Cleared 1 before and 2 after hooks
console.log(clearAfterToolCallHooks()); // 0
