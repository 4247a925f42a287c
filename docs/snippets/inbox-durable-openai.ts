// snippet: inbox-durable-openai.ts
import { Agent, RunState, run } from "@openai/agents";
import { ToolHooks } from "@toolware/core";
import {
  createInbox,
  inboxApproval,
  inboxResolver,
  resolveRunState,
  signerFromEnv,
  sqliteInboxStore,
} from "@toolware/inbox";
import { guardAgent, openAIAgentsApprovals, tool } from "@toolware/openai-agents";
import { approval } from "@toolware/packs/approval";
import { z } from "zod";

const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() }); // the call becomes an interruption
hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: "ask" }) }));
const sendEmail = tool({
  name: "send_email",
  description: "Sends an email",
  parameters: z.object({ to: z.string() }),
  execute: ({ to }) => `sent to ${to}`,
});
const agent = guardAgent(new Agent({ name: "mailer", tools: [sendEmail] }), hooks);
const resolver = inboxResolver({ inbox });

const first = await run(agent, "Mail the CEO");
const { pending } = await resolveRunState(resolver, first.state); // submits each interruption to the inbox
for (const p of pending) console.log(`${p.toolName} waits at ${p.url}`);
const saved = first.state.toString(); // store it

// Later, maybe in another process: approve or reject as the inbox decided, then run on.
const state = await RunState.fromString(agent, saved);
if ((await resolveRunState(resolver, state)).decided > 0) console.log((await run(agent, state)).finalOutput);
