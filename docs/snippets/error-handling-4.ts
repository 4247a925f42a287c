// snippet: error-handling-4.ts
import { beforeToolCall, defaultToolHooks, defineTool, messageOf, ToolHooks, type ToolInput } from "@toolware/core";

// Your existing validation; it may throw.
function validateInput(input: ToolInput): boolean {
  if (typeof input.query !== "string") throw new Error("query is missing");
  return input.query.length >= 3;
}

// The seed's example, translated as is: catch everything and decide per hook.
beforeToolCall(function safeValidation(ctx) {
  try {
    if (!validateInput(ctx.toolInput)) return false;
  } catch (e) {
    console.log(`⚠️ Hook error: ${messageOf(e)}`);
    return undefined; // allow execution despite the error
  }
  return undefined;
});

// The toolware way: no try/catch; the policy decides, and the failure is reported either way.
const failOpen = new ToolHooks();
failOpen.before((ctx) => validateInput(ctx.toolInput), { name: "validation", onError: "continue" });
const failClosed = new ToolHooks(); // onError "block" is the default
failClosed.before((ctx) => validateInput(ctx.toolInput), { name: "validation" });

const search = defineTool({ name: "web_search", execute: () => "results" });
console.log((await defaultToolHooks.invoke(search, {})).status); // ⚠️ Hook error: query is missing, then ok
console.log((await failOpen.invoke(search, {})).status); // ok (trace: validation failed)
console.log((await failClosed.invoke(search, {})).reason); // hook validation failed: query is missing
