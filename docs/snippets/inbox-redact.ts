// snippet: inbox-redact.ts
import { createInbox, signerFromEnv, sqliteInboxStore } from "@toolware/inbox";
import { createInboxServer } from "@toolware/inbox/server";
import { redact } from "@toolware/packs/redact";

const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
// The rules the agents' stack applies to results, so approvers see what results show.
const results = redact({ keys: ["x_internal_id"], emails: false });
const server = createInboxServer({ inbox, redact: results });
// Or only the options: createInboxServer({ inbox, redact: { keys: ["x_internal_id"], emails: false } })
await server.listen();
