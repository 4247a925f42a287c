// snippet: crewai-08.ts
import {
  beforeToolCall,
  defaultToolHooks,
  defineTool,
  scriptedHumanInput,
  type ToolCallHookContext,
} from "@toolware/core";

// Who answers: the terminal by default; a script here, so that the sample runs anywhere.
defaultToolHooks.humanInput = scriptedHumanInput(["yes", "no"]);

beforeToolCall(async function requireApprovalForActions(context: ToolCallHookContext) {
  const approvalRequired = ["send_email", "make_purchase", "delete_file", "post_message"];

  if (approvalRequired.includes(context.toolName)) {
    const response = await context.requestHumanInput(
      `Approve ${context.toolName}?`,
      `Input: ${JSON.stringify(context.toolInput)}\nType 'yes' to approve:`,
    );

    if (response.toLowerCase() !== "yes") {
      console.log(`❌ Tool execution denied: ${context.toolName}`);
      return false;
    }
  }

  return undefined;
});

const sendEmail = defineTool({ name: "send_email", execute: ({ to }: { to: string }) => `sent to ${to}` });
console.log((await defaultToolHooks.invoke(sendEmail, { to: "ada@example.com" })).status); // ok
console.log((await defaultToolHooks.invoke(sendEmail, { to: "all@example.com" })).status);
// ❌ Tool execution denied: send_email, then: blocked
// Nobody left to answer (in CrewAI's case: no terminal). The hook fails, and the call is blocked instead of running.
console.log((await defaultToolHooks.invoke(sendEmail, { to: "ceo@example.com" })).reason);
// hook requireApprovalForActions failed: toolware: the scripted human has no answer left for "Approve send_email?"
