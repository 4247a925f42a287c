// snippet: crewai-01.ts
import {
  type AfterToolCallHookType,
  type BeforeToolCallHookType,
  defineTool,
  type ToolCallHookContext,
  ToolHooks,
} from "@toolware/core";

// Return false to block execution; return true or undefined to allow execution.
function beforeHook(context: ToolCallHookContext): boolean | undefined {
  return context.toolName === "delete_database" ? false : undefined;
}

// Return a modified result string; return undefined to keep the original result.
function afterHook(context: ToolCallHookContext): string | undefined {
  return context.toolResult?.trim();
}

// The same signatures as types. Async hooks are accepted (and awaited) too.
const typedBefore: BeforeToolCallHookType = beforeHook;
const asyncAfter: AfterToolCallHookType = async (context) => context.toolResult?.toUpperCase();

const hooks = new ToolHooks();
hooks.before(typedBefore);
hooks.after(afterHook);
hooks.after(asyncAfter);
console.log((await hooks.invoke(defineTool({ name: "echo", execute: () => "  hello  " }), {})).result); // HELLO
