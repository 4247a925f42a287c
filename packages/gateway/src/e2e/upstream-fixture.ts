import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** An MCP server made with the SDK that uses every feature the gateway passes through. */
function featureServer(): McpServer {
  const server = new McpServer({ name: "features", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool(
    "echo",
    { description: "echoes", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }, extra) => {
      await server.sendLoggingMessage({ level: "info", data: `echo ${text}` }, extra.sessionId);
      return { content: [{ type: "text", text }], structuredContent: { text } };
    },
  );
  server.registerTool("wipe", { description: "wipes", annotations: { destructiveHint: true } }, async () => ({
    content: [{ type: "text", text: "wiped" }],
  }));
  server.registerTool("slow", { description: "reports progress, waits until cancelled" }, async (extra) => {
    const token = extra._meta?.progressToken;
    if (token !== undefined) {
      for (let i = 1; i <= 3; i++) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: i, total: 3 },
        });
      }
    }
    await new Promise<void>((resolve) => {
      if (extra.signal.aborted) resolve();
      extra.signal.addEventListener("abort", () => resolve(), { once: true });
      setTimeout(resolve, 200);
    });
    return { content: [{ type: "text", text: extra.signal.aborted ? "cancelled" : "done" }] };
  });
  server.registerTool("ask", { description: "asks the client: sampling, elicitation, roots" }, async (extra) => {
    const sampled = await server.server.createMessage(
      { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 },
      { relatedRequestId: extra.requestId },
    );
    const elicited = await server.server.elicitInput(
      { message: "name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
      { relatedRequestId: extra.requestId },
    );
    const roots = await server.server.listRoots(undefined, { relatedRequestId: extra.requestId });
    const text = JSON.stringify({ sampled: sampled.content, elicited: elicited.content, roots: roots.roots });
    return { content: [{ type: "text", text }] };
  });
  server.registerResource("one", "memo://one", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "memo one" }],
  }));
  server.registerResource(
    "memo",
    new ResourceTemplate("memo://items/{id}", { list: undefined, complete: { id: () => ["alpha", "beta"] } }),
    {},
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `memo ${String(id)}` }] }),
  );
  server.registerPrompt(
    "greet",
    { argsSchema: { who: completable(z.string(), (v) => ["world", "team"].filter((w) => w.startsWith(v))) } },
    ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `hello ${who}` } }] }),
  );
  return server;
}

/** Serves {@link featureServer} (or what `make` makes) over Streamable HTTP on loopback, one server per session. */
export async function startFeatureServer(
  make: () => Pick<McpServer, "connect"> = featureServer,
): Promise<{ url: string; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer(async (req, res) => {
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? transports.get(sid) : undefined;
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      await make().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      for (const t of transports.values()) await t.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
