import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { GatewayListener, GatewaySession, ListenOptions } from "./contract.js";

/** Opens a session on a transport (the gateway's `openSession`, bound). @internal */
export type OpenSession = (
  transport: StreamableHTTPServerTransport,
  id: string,
  onEnd: () => void,
) => Promise<GatewaySession>;

const digest = (text: string) => createHash("sha256").update(text).digest();

function answer(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

// Reads the body up to the limit: a larger one is refused before it is parsed (and before it fills memory). The rest
// is read and dropped, so the client, still sending, hears the 413; past four times the limit the socket is cut.
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | "too-large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        resolve("too-large");
        if (size > 4 * limit) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * Serves Streamable HTTP at `/mcp`: one gateway session per MCP session, the `Host` and `Origin` headers checked
 * against the allowed lists (DNS rebinding), an optional bearer token compared in constant time. @internal
 */
export async function listenHttp(options: ListenOptions, open: OpenSession): Promise<GatewayListener> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const token = options.bearerToken === undefined ? undefined : digest(`Bearer ${options.bearerToken}`);
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; session: GatewaySession }>();
  let hosts: Set<string> = new Set();
  let origins: Set<string> = new Set();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://gateway");
    if (!hosts.has((req.headers.host ?? "").toLowerCase()))
      return answer(res, 403, -32000, "Forbidden: Host not allowed");
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return answer(res, 403, -32000, "Forbidden: Origin not allowed");
    if (url.pathname === "/healthz" || url.pathname === "/readyz") {
      res.writeHead(200, { "content-type": "text/plain" });
      return void res.end("ok\n");
    }
    if (url.pathname !== "/mcp") return answer(res, 404, -32000, "Not found: the MCP endpoint is /mcp");
    if (token !== undefined) {
      const given = digest(String(req.headers.authorization ?? ""));
      if (!timingSafeEqual(given, token)) {
        res.setHeader("www-authenticate", "Bearer");
        return answer(res, 401, -32000, "Unauthorized: a bearer token is required");
      }
    }
    let parsed: unknown;
    if (req.method === "POST") {
      const body = await readBody(req, maxBody);
      if (body === "too-large") {
        res.setHeader("connection", "close");
        return answer(res, 413, -32600, `Request body larger than ${maxBody} bytes`);
      }
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        return answer(res, 400, -32700, "Parse error: the body is not JSON");
      }
    }
    const sid = req.headers["mcp-session-id"];
    if (typeof sid === "string") {
      const known = sessions.get(sid);
      if (known === undefined) return answer(res, 404, -32001, "Session not found");
      return known.transport.handleRequest(req, res, parsed);
    }
    if (req.method !== "POST") return answer(res, 400, -32000, "Bad request: no session id");
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const session = await open(transport, id, () => sessions.delete(id));
    sessions.set(id, { transport, session });
    await transport.handleRequest(req, res, parsed);
    // An initialize that failed leaves no session behind.
    if (transport.sessionId === undefined) await session.close();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => answer(res, 500, -32603, "Internal error"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8787, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  const defaults = [`${shown}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
  hosts = new Set((options.allowedHosts ?? defaults).map((h) => h.toLowerCase()));
  origins = new Set((options.allowedOrigins ?? [...hosts].map((h) => `http://${h}`)).map((o) => o.toLowerCase()));
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.session.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
