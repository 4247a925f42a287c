// snippet: gateway-approvals.ts
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolHooks } from "@toolware/core";
import { createGateway, gatewayApprovals, gatewayCall } from "@toolware/gateway";
import { createInbox, signerFromEnv, sqliteInboxStore } from "@toolware/inbox";
import { watchPolicy } from "@toolware/policy";

// The inbox's store and keys, as `toolware inbox` serves them; request links point at its page.
const inbox = createInbox({
  store: sqliteInboxStore({ file: "toolware-inbox.db" }),
  signer: signerFromEnv(),
  baseUrl: "https://inbox.example.com",
});
const policy = await watchPolicy("toolware.policy.yaml", { caller: (ctx) => gatewayCall(ctx)?.client?.name });
// Elicitation when the client has it, else the inbox; a call waits 45 s at most, then says where it waits.
const hooks = new ToolHooks({ humanInput: gatewayApprovals({ inbox, waitMs: 45_000 }) });
hooks.use(policy);

const gateway = createGateway({
  upstreams: [{ name: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/work"] }],
  hooks,
  policy,
});
await gateway.start();
await gateway.connect(new StdioServerTransport());
