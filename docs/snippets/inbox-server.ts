// snippet: inbox-server.ts
import { createInbox, signerFromEnv, sqliteInboxStore } from "@toolware/inbox";
import { createInboxServer, inboxWebhooks } from "@toolware/inbox/server";

const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
const { token } = await inbox.approvers.add({ name: "alice", roles: ["approver"] });
console.log("alice's token (shown once):", token);

const stopHooks = inboxWebhooks({
  inbox,
  url: "https://hooks.slack.com/services/T000/B000/XXXX",
  secret: process.env.INBOX_WEBHOOK_SECRET ?? "",
  preset: "slack",
});

const server = createInboxServer({ inbox }); // 127.0.0.1:7717
const { url, close } = await server.listen();
console.log(`approve at ${url}`);

process.on("SIGTERM", async () => {
  stopHooks();
  await close();
  await inbox.close();
});
