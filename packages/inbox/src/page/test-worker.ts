import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { inboxApproval } from "../gate.js";
import { createInbox } from "../inbox.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer } from "../test-utils.js";

// An agent process for the browser test: its send_email calls wait in the shared inbox (a SQLite
// file), then it prints what each call got and what the tool ran with, one JSON line.
const [file, agent, callsJson] = process.argv.slice(2) as [string, string, string];
const inbox = createInbox({ store: sqliteInboxStore({ file }), signer: signer(), pollMs: 20 });
const ran: Record<string, unknown> = {};
const send = defineTool({
  name: "send_email",
  execute: (input: Record<string, unknown>, ctx: { callId: string }) => {
    ran[ctx.callId] = input;
    return "sent";
  },
});
const hooks = new ToolHooks();
hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "wait", caller: agent }) }));
const calls = JSON.parse(callsJson) as { callId: string; input: Record<string, unknown> }[];
const results = await Promise.all(
  calls.map(async ({ callId, input }) => {
    const out = await hooks.invoke(send, input, { callId });
    return { callId, status: out.status, reason: "reason" in out ? out.reason : undefined, ran: ran[callId] };
  }),
);
process.stdout.write(`${JSON.stringify(results)}\n`);
await inbox.close();
