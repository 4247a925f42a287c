import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardClient, guardServer } from "./index.js";
import { filesServer, firstText, link, newClient } from "./test-fixtures.js";

describe("guardClient: what the host sees for calls toolware refuses", () => {
  it("arguments that are no object (a model's list, text or number) resolve isError; the server is never called", async () => {
    const { server, seen } = filesServer();
    const client = guardClient(newClient(), new ToolHooks());
    await link(server, client);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer()), fc.boolean()), async (args) => {
        const result = await client.callTool({ name: "read_note", arguments: args as never });
        expect(result.isError).toBe(true);
        expect(firstText(result)).toContain("Tool execution failed. Tool: read_note");
      }),
      { numRuns: 20 },
    );
    expect(seen).toEqual([]);
  });

  it("a hook failing (default policy) blocks closed: isError, the server never called", async () => {
    const { server, seen } = filesServer();
    const hooks = new ToolHooks();
    hooks.before(() => {
      throw new Error("policy store down");
    });
    const client = guardClient(newClient(), hooks);
    await link(server, client);
    const result = await client.callTool({ name: "delete_note", arguments: { path: "a" } });
    expect(result.isError).toBe(true);
    expect(seen).toEqual([]);
  });
});

// Speaks raw JSON-RPC to a guarded server, as a hostile client can, with request ids of its choosing.
async function rawSession(server: McpServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const replies = new Map<unknown, JSONRPCMessage>();
  clientSide.onmessage = (message) => {
    if ("id" in message) replies.set(message.id, message);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const send = async (message: JSONRPCMessage) => {
    await clientSide.send(message);
    const id = (message as { id?: unknown }).id;
    for (let i = 0; i < 100 && !replies.has(id); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    return replies.get(id) as { result?: { isError?: boolean; content?: { text?: string }[] } } | undefined;
  };
  await send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return send;
}

describe("guardServer: a hostile client's request id", () => {
  it("an id core refuses as a call id fails the call closed, as an isError result the app hears of", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const ran: string[] = [];
    const server = guardServer(new McpServer({ name: "s", version: "1.0.0" }), new ToolHooks(), {
      onOutcome: (o) => outcomes.push(o),
    });
    server.registerTool("wipe", { inputSchema: { path: z.string() } }, async ({ path }) => {
      ran.push(path);
      return { content: [{ type: "text", text: "wiped" }] };
    });
    const send = await rawSession(server);
    for (const id of ["bad\u0000id", "x".repeat(300)]) {
      const reply = await send({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "wipe", arguments: { path: "/" } },
      });
      expect(reply?.result?.isError).toBe(true);
    }
    const fine = await send({
      jsonrpc: "2.0",
      id: "ok-1",
      method: "tools/call",
      params: { name: "wipe", arguments: { path: "/tmp" } },
    });
    expect(fine?.result?.isError).toBeUndefined();
    expect(ran).toEqual(["/tmp"]);
    expect(outcomes.map((o) => o.status)).toEqual(["error", "error", "ok"]);
  });
});
