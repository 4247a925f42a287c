// snippet: crewai-23.ts
import { beforeToolCall, defaultToolHooks, defineTool, type ToolCallHookContext, type ToolInput } from "@toolware/core";

/** Your existing validation function. */
function existingValidator(toolName: string, inputs: ToolInput): boolean {
  // Your validation logic
  return !(toolName === "transfer_money" && Number(inputs.amount) > 1000);
}

beforeToolCall(function integrateValidator(context: ToolCallHookContext): boolean | undefined {
  if (!existingValidator(context.toolName, context.toolInput)) {
    console.log(`❌ Validation failed for ${context.toolName}`);
    return false;
  }
  return undefined;
});

const transfer = defineTool({ name: "transfer_money", execute: ({ amount }: { amount: number }) => `sent ${amount}` });
console.log((await defaultToolHooks.invoke(transfer, { amount: 5000 })).status); // ❌ Validation failed…, then: blocked
console.log((await defaultToolHooks.invoke(transfer, { amount: 50 })).result); // sent 50
