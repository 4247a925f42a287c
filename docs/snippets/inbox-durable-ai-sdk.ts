// snippet: inbox-durable-ai-sdk.ts
import { aiSdkApproval, guardTools, toolApproval } from "@toolware/ai-sdk";
import { ToolHooks } from "@toolware/core";
import {
  aiSdkResponses,
  createInbox,
  inboxApproval,
  inboxResolver,
  signerFromEnv,
  sqliteInboxStore,
} from "@toolware/inbox";
import { approval } from "@toolware/packs/approval";
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, tool } from "ai7"; // ai 7
import { z } from "zod";

declare const model: LanguageModel;
declare function load(): Promise<ModelMessage[]>; // your chat store
const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
const hooks = new ToolHooks();
// A pending request becomes the SDK's approval request: the run ends; the SDK's answer only wakes the call.
hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: aiSdkApproval }) }));
const tools = guardTools(hooks, {
  send_email: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `sent to ${to}` }),
});
const resolver = inboxResolver({ inbox });

// Any request later, in any process: answer the approval requests the inbox has decided, then go on.
const messages = await load();
const { decided, pending } = await aiSdkResponses(resolver, messages);
for (const p of pending) console.log(`${p.toolName} waits at ${p.url}`);
if (decided.length > 0) {
  messages.push({ role: "tool", content: decided });
  await generateText({ model, tools, toolApproval: toolApproval(tools), messages, stopWhen: stepCountIs(5) });
}
