// snippet: crewai-22.ts
import {
  type AfterToolCallHookType,
  type BeforeToolCallHookType,
  registerAfterToolCallHook,
  registerBeforeToolCallHook,
  type ToolCallHookContext,
} from "@toolware/core";

// Explicit type annotations
function myBeforeHook(_context: ToolCallHookContext): boolean | undefined {
  return undefined;
}

function myAfterHook(_context: ToolCallHookContext): string | undefined {
  return undefined;
}

// Type-safe registration
registerBeforeToolCallHook(myBeforeHook);
registerAfterToolCallHook(myAfterHook);

// The hook types, for arrow functions; async versions type-check too.
const noRmRf: BeforeToolCallHookType = (context) => context.toolName !== "rm_rf";
const trimmed: AfterToolCallHookType = async (context) => context.toolResult?.trim();
registerBeforeToolCallHook(noRmRf);
registerAfterToolCallHook(trimmed);

// Mistakes are compile errors, not hooks that silently do nothing:
// @ts-expect-error an after-hook returns a string (or nothing), not a boolean
registerAfterToolCallHook((context) => context.toolName === "rm_rf");
