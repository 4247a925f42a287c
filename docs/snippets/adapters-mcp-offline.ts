// snippet: adapters-mcp-offline.ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ToolHooks } from "@toolware/core";
import { guardClient } from "@toolware/mcp";
import { guardrails } from "@toolware/packs/guardrails";
import { z } from "zod";

// A server in this process (in production: any MCP server, over stdio or HTTP).
const server = new McpServer({ name: "files", version: "1.0.0" });
server.registerTool(
  "delete_file",
  { inputSchema: { path: z.string() }, annotations: { destructiveHint: true } },
  async ({ path }) => ({ content: [{ type: "text", text: `deleted ${path}` }] }),
);

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: [{ destructive: true }] })); // the server's destructiveHint counts
const client = guardClient(new Client({ name: "my-app", version: "1.0.0" }), hooks);

// The SDK's in-memory transport pair: client and server talk in this process. No network.
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
const result = await client.callTool({ name: "delete_file", arguments: { path: "notes.txt" } });
console.log(result.isError, result.content); // true [{ type: "text", text: "Tool execution blocked by hook. …" }]
await client.close();
