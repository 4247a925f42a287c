// The upstream every gateway case talks to: a small MCP server made with the SDK, tools `echo` and `db0_drop` that answer
// their `text` argument. `node upstream.js stdio` serves stdin/stdout; `node upstream.js http` serves Streamable HTTP on a
// free loopback port (a session per client) and prints `LISTENING <url>` on stderr.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { LISTENING_MARK } from "./marks.js";

const ECHO = {
  name: "echo",
  description: "Answers its text.",
  inputSchema: { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] },
  annotations: { readOnlyHint: true },
};
// Echoes too; the suite's 50-rule policy denies it with `table: "users"` (the check that the policy runs).
const DROP = { ...ECHO, name: "db0_drop", description: "Answers its text.", annotations: {} };

function echoServer(): Server {
  const server = new Server({ name: "bench-echo", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [ECHO, DROP] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: "text", text: String(request.params.arguments?.text ?? "") }],
  }));
  return server;
}

if (process.argv[2] === "http") {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    const sid = req.headers["mcp-session-id"];
    const known = typeof sid === "string" ? sessions.get(sid) : undefined;
    if (known !== undefined) return void known.handleRequest(req, res);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    void echoServer()
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  http.listen(0, "127.0.0.1", () => {
    process.stderr.write(`${LISTENING_MARK}http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
  });
} else {
  await echoServer().connect(new StdioServerTransport());
}
