// snippet: adapters-mcp-2.ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Agent, ToolHooks } from "@toolware/core";
import { elicitationHumanInput, guardServer } from "@toolware/mcp";
import { approval } from "@toolware/packs/approval";
import { z } from "zod";

const guest = new Agent({ role: "guest" });
guest.before((ctx) => !ctx.tool.destructive); // guests never delete
const hooks = new ToolHooks({ humanInput: elicitationHumanInput() }); // asks the client's user
hooks.use(approval({ tools: { destructive: true } })); // no elicitation support: denied

const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks, {
  bind: ({ authInfo }) => (authInfo?.scopes.includes("notes:admin") ? {} : { agent: guest }),
});
server.registerTool(
  "delete_note",
  { inputSchema: { name: z.string() }, annotations: { destructiveHint: true } },
  async ({ name }) => ({ content: [{ type: "text", text: `deleted ${name}` }] }),
);
