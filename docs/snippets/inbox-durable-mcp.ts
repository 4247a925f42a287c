// snippet: inbox-durable-mcp.ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolHooks } from "@toolware/core";
import { createInbox, inboxApproval, signerFromEnv, sqliteInboxStore } from "@toolware/inbox";
import { guardClient } from "@toolware/mcp";
import { approval } from "@toolware/packs/approval";

const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
const hooks = new ToolHooks();
hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", caller: "mailer" }) }));
const client = guardClient(new Client({ name: "mailer", version: "1.0.0" }), hooks);
await client.connect(new StdioClientTransport({ command: "mail-mcp-server" }));

// The model's call id in _meta: the same call made again finds its request.
const send = () =>
  client.callTool({ name: "send_email", arguments: { to: "ceo@example.com" }, _meta: { "toolware/callId": "call_7" } });
const first = await send(); // at once: isError, "send_email waits for approval in the inbox (request req_…: http://…)"
console.log(first.content);
// After an approver decided: the same call runs once (a third try reads "was used already").
const later = await send();
console.log(later.isError ? "not approved" : "sent");
