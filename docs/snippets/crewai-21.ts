// snippet: crewai-21.ts
import {
  beforeToolCall,
  defaultToolHooks,
  defineTool,
  messageOf,
  type ToolCallHookContext,
  type ToolInput,
} from "@toolware/core";

// Your validation logic; it may throw.
function validateInput(input: ToolInput): boolean {
  if (typeof input.query !== "string") throw new Error("query is missing");
  return input.query.length >= 3;
}

beforeToolCall(function safeValidation(context: ToolCallHookContext): boolean | undefined {
  try {
    // Your validation logic
    if (!validateInput(context.toolInput)) return false;
  } catch (e) {
    console.log(`⚠️ Hook error: ${messageOf(e)}`);
    // Decide: allow or block on error
    return undefined; // Allow execution despite error
  }
  return undefined;
});

const search = defineTool({ name: "web_search", execute: () => "results" });
console.log((await defaultToolHooks.invoke(search, {})).status); // ⚠️ Hook error: query is missing, then: ok
// Without the try/catch, toolware would block the call (fail closed): see the error-handling page.
