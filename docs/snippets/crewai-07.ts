// snippet: crewai-07.ts
import { beforeToolCall, defaultToolHooks, defineTool, type ToolCallHookContext } from "@toolware/core";

beforeToolCall(function safetyCheck(context: ToolCallHookContext): boolean | undefined {
  // Block tools that could cause harm
  const destructiveTools = ["delete_file", "drop_table", "remove_user", "system_shutdown"];
  if (destructiveTools.includes(context.toolName)) {
    console.log(`🛑 Blocked destructive tool: ${context.toolName}`);
    return false;
  }

  // Warn on sensitive operations
  const sensitiveTools = ["send_email", "post_to_social_media", "charge_payment"];
  if (sensitiveTools.includes(context.toolName)) {
    console.log(`⚠️  Executing sensitive tool: ${context.toolName}`);
  }

  return undefined;
});

const deleteFile = defineTool({ name: "delete_file", execute: () => "deleted" });
const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });
console.log((await defaultToolHooks.invoke(deleteFile, {})).result);
// 🛑 Blocked destructive tool: delete_file
// Tool execution blocked by hook. Tool: delete_file
console.log((await defaultToolHooks.invoke(sendEmail, {})).result);
// ⚠️  Executing sensitive tool: send_email
// sent
