import { Redis } from "ioredis";
import { createInbox } from "./inbox.js";
import { redisInboxStore } from "./redis-store.js";
import { sqliteInboxStore } from "./sqlite-store.js";
import { signer } from "./test-utils.js";

// A separate inbox process for the crash tests: `submit <count>` issues requests and then hangs
// (to be SIGKILLed); `decide <token>` approves the even ones and rejects the odd ones.
const [store, where, command, arg] = process.argv.slice(2) as [string, string, string, string];
const client = store === "redis" ? new Redis({ port: Number(where), host: "127.0.0.1" }) : undefined;
const inbox = createInbox({
  store: client === undefined ? sqliteInboxStore({ file: where }) : redisInboxStore({ client, prefix: "crash:" }),
  signer: signer(),
});

if (command === "submit") {
  const ids: string[] = [];
  for (let i = 0; i < Number(arg); i++) {
    const { request } = await inbox.submit({
      toolName: "send_email",
      callId: `call_${i}`,
      input: { i },
      caller: "agent",
    });
    ids.push(request.id);
  }
  process.stdout.write(`${JSON.stringify(ids)}\n`);
  setInterval(() => {}, 1000);
} else {
  const approver = await inbox.approvers.authenticate(arg);
  if (approver === undefined) throw new Error("the token was not found after the restart");
  const pending = await inbox.list({ state: "pending", limit: 1000 });
  for (const r of pending) {
    const i = (r.input as { i: number }).i;
    await inbox.decide(r.id, { approver, approve: i % 2 === 0, reason: `decided ${i}`, digest: r.binding.digest });
  }
  process.stdout.write(`${JSON.stringify(pending.length)}\n`);
  await inbox.close();
  client?.disconnect();
}
