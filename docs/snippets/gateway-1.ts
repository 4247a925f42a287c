// snippet: gateway-1.ts
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolHooks } from "@toolware/core";
import { createGateway, gatewayCall, gatewayElicitation } from "@toolware/gateway";
import { watchPolicy } from "@toolware/policy";

const policy = await watchPolicy("toolware.policy.yaml", { caller: (ctx) => gatewayCall(ctx)?.client?.name });
const hooks = new ToolHooks({ humanInput: gatewayElicitation() }); // approvals ask through the client
hooks.use(policy);

const gateway = createGateway({
  upstreams: [
    { name: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/work"] },
    { name: "tickets", url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer …" }, trusted: false },
  ],
  hooks,
  policy, // tools it denies outright are hidden from tools/list
  onEvent: (event) => event.type === "upstream-closed" && console.error(`${event.upstream} closed`),
});
policy.on((event) => event.type === "reload" && gateway.toolsChanged());
await gateway.start();
await gateway.connect(new StdioServerTransport()); // or: await gateway.listen({ port: 8787 })
