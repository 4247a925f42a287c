import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import { type ServerType, serve } from "@hono/node-server";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { type Context, Hono } from "hono";
import type { GatewayListener, GatewaySession, ListenOptions } from "./contract.js";

/** Opens a session on a transport (the gateway's `openSession`, bound). @internal */
export type OpenSession = (
  transport: WebStandardStreamableHTTPServerTransport,
  id: string,
  onEnd: () => void,
) => Promise<GatewaySession>;

/** Why the gateway is not ready (`/readyz` answers 503 with it), or undefined when it is. @internal */
export type Readiness = () => Promise<string | undefined>;

const digest = (text: string) => createHash("sha256").update(text).digest();

const answer = (status: number, code: number, message: string, id: unknown = null) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id }, { status });

// Reads the body up to the limit: a larger one is refused before it is parsed (and before it fills memory).
async function readBody(request: Request, limit: number): Promise<string | undefined> {
  if (Number(request.headers.get("content-length") ?? 0) > limit) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.byteLength;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

// A body that is JSON but not one JSON-RPC message is refused here, with the id when there is one to echo.
function refuseMessage(parsed: unknown): Response | undefined {
  if (Array.isArray(parsed)) return answer(400, -32600, "Invalid Request: JSON-RPC batches are not supported");
  if (JSONRPCMessageSchema.safeParse(parsed).success) return undefined;
  const id = (parsed as { id?: unknown } | null)?.id;
  return answer(
    400,
    -32600,
    "Invalid Request: not a JSON-RPC 2.0 message",
    typeof id === "string" || typeof id === "number" ? id : null,
  );
}

/**
 * Serves Streamable HTTP at `/mcp` on Hono: one gateway session per MCP session, the `Host` and `Origin` headers
 * checked against the allowed lists (DNS rebinding), an optional bearer token compared in constant time, the body
 * limit applied before parsing; `/healthz` (alive) and `/readyz` (started, upstreams reachable). @internal
 */
export async function listenHttp(
  options: ListenOptions,
  open: OpenSession,
  readiness: Readiness,
): Promise<GatewayListener> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const token = options.bearerToken === undefined ? undefined : digest(`Bearer ${options.bearerToken}`);
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; session: GatewaySession }>();
  let hosts: Set<string> = new Set();
  let origins: Set<string> = new Set();

  const app = new Hono();
  app.use(async (c, next) => {
    if (!hosts.has((c.req.header("host") ?? "").toLowerCase()))
      return answer(403, -32000, "Forbidden: Host not allowed");
    const origin = c.req.header("origin");
    if (origin !== undefined && !origins.has(origin.toLowerCase()))
      return answer(403, -32000, "Forbidden: Origin not allowed");
    await next();
  });
  app.get("/healthz", (c) => c.text("ok\n"));
  app.get("/readyz", async (c) => {
    const reason = await readiness().catch((error: unknown) => `readiness check failed: ${String(error)}`);
    return reason === undefined ? c.json({ ready: true }) : c.json({ ready: false, reason }, 503);
  });
  app.all("/mcp", async (c: Context) => {
    if (token !== undefined && !timingSafeEqual(digest(c.req.header("authorization") ?? ""), token)) {
      c.header("www-authenticate", "Bearer");
      return answer(401, -32000, "Unauthorized: a bearer token is required");
    }
    let parsed: unknown;
    if (c.req.method === "POST") {
      const body = await readBody(c.req.raw, maxBody);
      if (body === undefined) return answer(413, -32600, `Request body larger than ${maxBody} bytes`);
      try {
        parsed = JSON.parse(body);
      } catch {
        return answer(400, -32700, "Parse error: the body is not JSON");
      }
      const refused = refuseMessage(parsed);
      if (refused !== undefined) return refused;
    }
    const sid = c.req.header("mcp-session-id");
    if (sid !== undefined) {
      const known = sessions.get(sid);
      if (known === undefined) return answer(404, -32001, "Session not found");
      return known.transport.handleRequest(c.req.raw, { parsedBody: parsed });
    }
    if (c.req.method !== "POST") return answer(400, -32000, "Bad request: no session id");
    if (!isInitializeRequest(parsed)) return answer(400, -32600, "Bad request: no session id, and not an initialize");
    const id = randomUUID();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const session = await open(transport, id, () => sessions.delete(id));
    sessions.set(id, { transport, session });
    const response = await transport.handleRequest(c.req.raw, { parsedBody: parsed });
    // An initialize that failed leaves no session behind.
    if (transport.sessionId === undefined) await session.close();
    return response;
  });
  app.notFound(() => answer(404, -32000, "Not found: the MCP endpoint is /mcp"));
  app.onError(() => answer(500, -32603, "Internal error"));

  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 8787 }, () => resolve(s));
    s.once("error", reject);
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const shown = host.includes(":") ? `[${host}]` : host;
  const defaults = [`${shown}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
  hosts = new Set((options.allowedHosts ?? defaults).map((h) => h.toLowerCase()));
  origins = new Set((options.allowedOrigins ?? [...hosts].map((h) => `http://${h}`)).map((o) => o.toLowerCase()));
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.session.close()));
      if ("closeAllConnections" in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
