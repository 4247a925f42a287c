import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { Redis } from "ioredis";
import { inboxApproval } from "../gate.js";
import { createInbox } from "../inbox.js";
import { redisInboxStore } from "../redis-store.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer } from "../test-utils.js";

// An agent process for the browser tests: its send_email calls wait in the shared inbox (a SQLite
// file, or a redis-server's port), then it prints what each call got, what the tool ran with and
// how many times it ran, one JSON line. Arguments: `<sqlite|redis> <file|port> <agent> <calls JSON>`.
const [kind, where, agent, callsJson] = process.argv.slice(2) as [string, string, string, string];
const client = kind === "redis" ? new Redis({ port: Number(where), host: "127.0.0.1" }) : undefined;
const store = client === undefined ? sqliteInboxStore({ file: where }) : redisInboxStore({ client, prefix: "e2e:" });
const inbox = createInbox({ store, signer: signer(), pollMs: 20 });
const ran: Record<string, unknown> = {};
const runs: Record<string, number> = {};
const send = defineTool({
  name: "send_email",
  execute: (input: Record<string, unknown>, ctx: { callId: string }) => {
    ran[ctx.callId] = input;
    runs[ctx.callId] = (runs[ctx.callId] ?? 0) + 1;
    return "sent";
  },
});
const hooks = new ToolHooks();
hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "wait", caller: agent }) }));
const calls = JSON.parse(callsJson) as { callId: string; input: Record<string, unknown> }[];
const results = await Promise.all(
  calls.map(async ({ callId, input }) => {
    const out = await hooks.invoke(send, input, { callId });
    const reason = "reason" in out ? out.reason : undefined;
    return { callId, status: out.status, reason, ran: ran[callId], runs: runs[callId] ?? 0 };
  }),
);
process.stdout.write(`${JSON.stringify(results)}\n`);
await inbox.close();
client?.disconnect();
