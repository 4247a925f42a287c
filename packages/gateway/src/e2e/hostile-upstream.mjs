// A stdio MCP server that misbehaves on request, run as a child process by the fault tests:
// `crash` exits in the middle of a call, `garbage` writes a line that is not JSON-RPC and never answers.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "hostile", version: "1.0.0" });
server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: "text", text }],
}));
server.registerTool("pid", {}, async () => ({ content: [{ type: "text", text: String(process.pid) }] }));
server.registerTool("crash", {}, async () => {
  setTimeout(() => process.exit(3), 20);
  return new Promise(() => undefined);
});
server.registerTool("garbage", {}, async () => {
  process.stdout.write("this is not JSON-RPC {\n");
  return new Promise(() => undefined);
});
await server.connect(new StdioServerTransport());
