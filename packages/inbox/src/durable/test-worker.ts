import { readFileSync, writeFileSync } from "node:fs";
import { Agent, RunState, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { ToolHooks } from "@toolware/core";
import { guardAgent, openAIAgentsApprovals, tool } from "@toolware/openai-agents";
import { approval } from "@toolware/packs/approval";
import { z } from "zod";
import { inboxApproval } from "../gate.js";
import { createInbox } from "../inbox.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer } from "../test-utils.js";
import { resolveRunState } from "./frameworks.js";
import { inboxResolver } from "./resolver.js";

// One agent process of the cross-process test: `pause <db> <state file>` runs until the approval interruption and
// saves the RunState; `resume <db> <state file>` resumes it as the inbox decided. Prints what it did as one JSON line.
setTracingDisabled(true);
const [command, db, file] = process.argv.slice(2) as [string, string, string];
const inbox = createInbox({ store: sqliteInboxStore({ file: db }), signer: signer() });
const ran: string[] = [];
const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
hooks.use(
  approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: "ask", caller: "mailer" }) }),
);
const send = tool({
  name: "send_email",
  description: "Sends an email",
  parameters: z.object({ to: z.string() }),
  execute: ({ to }) => {
    ran.push(to);
    return `sent to ${to}`;
  },
});
const script =
  command === "pause"
    ? [[functionCall("send_email", { to: "ann@example.com" }, { callId: "x1" })]]
    : [[assistantMessage("done")]];
const agent = guardAgent(new Agent({ name: "mailer", model: new ScriptedModel(script), tools: [send] }), hooks);
const resolver = inboxResolver({ inbox, caller: "mailer" });

if (command === "pause") {
  const first = await run(agent, "mail ann");
  const { pending } = await resolveRunState(resolver, first.state);
  writeFileSync(file, first.state.toString());
  process.stdout.write(`${JSON.stringify({ pending })}\n`);
} else {
  const state = await RunState.fromString(agent, readFileSync(file, "utf8"));
  const { decided } = await resolveRunState(resolver, state);
  const result = decided > 0 ? await run(agent, state) : undefined;
  const outputs = (result?.newItems ?? []).flatMap((i) =>
    i.type === "tool_call_output_item" ? [String((i as { output?: unknown }).output)] : [],
  );
  process.stdout.write(`${JSON.stringify({ decided, ran, outputs, final: result?.finalOutput ?? null })}\n`);
}
await inbox.close();
