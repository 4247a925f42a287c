// snippet: inbox-durable-langgraph.ts
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ToolHooks } from "@toolware/core";
import {
  createInbox,
  inboxApproval,
  inboxResolver,
  langGraphResume,
  signerFromEnv,
  sqliteInboxStore,
} from "@toolware/inbox";
import { interruptHumanInput, toolwareMiddleware } from "@toolware/langchain";
import { approval } from "@toolware/packs/approval";
import { createAgent } from "langchain";
import { z } from "zod";

const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
const hooks = new ToolHooks({ humanInput: interruptHumanInput() }); // a pending request pauses the run
hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: "ask" }) }));
const sendEmail = tool(async ({ to }) => `sent to ${to}`, { name: "send_email", schema: z.object({ to: z.string() }) });
const agent = createAgent({
  model: "openai:gpt-5",
  tools: [sendEmail],
  checkpointer: new MemorySaver(), // in production, a checkpointer every worker shares
  middleware: [toolwareMiddleware(hooks)],
});
const config = { configurable: { thread_id: "t1" } };
const paused = await agent.invoke({ messages: [{ role: "user", content: "Mail the CEO" }] }, config);

const resolver = inboxResolver({ inbox });
const { decided, pending } = await langGraphResume(resolver, paused.__interrupt__ ?? [], paused.messages);
for (const p of pending) console.log(`${p.toolName} waits at ${p.url}`);
// Once decided (a webhook, a poll): each question gets the inbox's answer, bound to its call.
if (decided !== undefined) await agent.invoke(new Command({ resume: decided }), config);
