import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolResultSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { timeout } from "@toolware/packs/timeout";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardClient } from "./index.js";
import { firstText, link, newClient } from "./test-fixtures.js";

function slowServer() {
  const server = new McpServer({ name: "slow", version: "1" });
  const signals: AbortSignal[] = [];
  let started!: () => void;
  const running = new Promise<void>((r) => (started = r));
  server.registerTool("slow", { inputSchema: { n: z.number() } }, async (_args, extra) => {
    signals.push(extra.signal);
    started();
    await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
    return { content: [{ type: "text", text: "late" }] };
  });
  return { server, signals, running };
}

// A scripted peer: answers initialize and tools/list, and answers tools/call with what `reply` returns.
async function scriptedPeer(reply: (id: number, params: unknown) => JSONRPCMessage) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message) => {
    const m = message as { id?: number; method?: string; params?: unknown };
    const id = m.id ?? 0;
    if (m.method === "initialize") {
      void serverSide.send({
        jsonrpc: "2.0",
        id,
        result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "x", version: "1" } },
      });
    } else if (m.method === "tools/list") {
      const tools = [
        {
          name: "typed",
          inputSchema: { type: "object" },
          outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        },
        { name: "plain", inputSchema: { type: "object" } },
        {
          name: "bogus",
          inputSchema: { type: "object" },
          outputSchema: { type: "object", properties: { n: { type: "bogus" } } },
        },
      ];
      void serverSide.send({ jsonrpc: "2.0", id, result: { tools } });
    } else if (m.method === "tools/call") {
      void serverSide.send(reply(id, m.params));
    }
  };
  await serverSide.start();
  return clientSide;
}

describe("guardClient on the wire", () => {
  it("a hook's own timeout cancels the call the chain sent: the server's handler is aborted", async () => {
    const { server, signals, running } = slowServer();
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 50 }));
    const outcomes: ToolCallOutcome[] = [];
    const client = guardClient(newClient(), hooks, { onOutcome: (o) => outcomes.push(o) });
    await link(server, client);
    const pending = client.callTool({ name: "slow", arguments: { n: 1 } });
    await running;
    const result = await pending;
    expect(result.isError).toBe(true);
    await expect.poll(() => signals[0]?.aborted).toBe(true);
    expect(outcomes.map((o) => o.status)).toEqual(["error"]);
  });

  it("a connection that closes under a running call ends it as an error the app hears of", async () => {
    const { server, running } = slowServer();
    const outcomes: ToolCallOutcome[] = [];
    const client = guardClient(newClient(), new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    await link(server, client);
    const pending = client.callTool({ name: "slow", arguments: { n: 1 } });
    await running;
    await client.close();
    const result = await pending;
    expect(result.isError).toBe(true);
    await expect.poll(() => outcomes.length).toBe(1);
    expect(outcomes[0]?.status).toBe("error");
  });

  it("what the plain SDK's callTool refuses is a failed call, on every path", async () => {
    const missing = (id: number): JSONRPCMessage => ({
      jsonrpc: "2.0",
      id,
      error: { code: -32602, message: "no such tool" },
    });
    const answers: Record<string, (id: number) => JSONRPCMessage> = {
      typed: (id) => ({ jsonrpc: "2.0", id, result: { content: [], structuredContent: { n: "x" } } }),
      plain: (id) => ({ jsonrpc: "2.0", id, result: { content: "not a list" } }),
    };
    const transport = await scriptedPeer((id, params) => {
      const name = (params as { name: string }).name;
      return (answers[name] ?? missing)(id);
    });
    const outcomes: ToolCallOutcome[] = [];
    const client = guardClient(newClient(), new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    await client.connect(transport);
    for (const name of ["typed", "plain", "missing"]) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
    }
    expect(outcomes.map((o) => toolwareCode(o.error))).toEqual([
      "TOOLWARE_MCP_INVALID_RESULT",
      "TOOLWARE_MCP_INVALID_RESULT",
      "TOOLWARE_MCP_TOOL_ERROR",
    ]);
    // An output schema the client's validator cannot compile checks nothing, so every result fails closed.
    const bogus = await scriptedPeer((id) => ({
      jsonrpc: "2.0",
      id,
      result: { content: [], structuredContent: { n: 1 } },
    }));
    const strict = guardClient(newClient(), new ToolHooks());
    await strict.connect(bogus);
    const refused = await strict.callTool({ name: "bogus", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain("cannot be compiled");
    const typedWithoutStructure = await scriptedPeer((id) => ({ jsonrpc: "2.0", id, result: { content: [] } }));
    const other = guardClient(newClient(), new ToolHooks());
    await other.connect(typedWithoutStructure);
    const result = await other.callTool({ name: "typed", arguments: {} });
    expect(firstText(result)).toContain("no structuredContent");
  });

  it("the guarded transport cannot have its send replaced, and a reconnect is guarded too", async () => {
    const { server } = slowServer();
    const client = guardClient(newClient(), new ToolHooks());
    await link(server, client);
    const transport = client.transport as { send: unknown };
    expect(() => {
      transport.send = async () => {};
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(transport, "send", { value: async () => {} })).toThrow(TypeError);
    expect(() => Object.defineProperty(transport, "note", { value: 1, configurable: true })).not.toThrow();
    expect(() => Object.defineProperty(client, "_transport", { value: undefined })).toThrow(TypeError);
    await client.close();
    const hooks = new ToolHooks();
    hooks.before((ctx) => !ctx.tool.destructive);
    const guarded = guardClient(newClient(), hooks);
    const ran: string[] = [];
    for (const round of [1, 2]) {
      const again = new McpServer({ name: `again-${round}`, version: "1" });
      again.registerTool(
        "wipe",
        { inputSchema: { p: z.string() }, annotations: { destructiveHint: true } },
        async ({ p }) => {
          ran.push(p);
          return { content: [{ type: "text", text: "wiped" }] };
        },
      );
      await link(again, guarded);
      if (round === 1) await guarded.close();
    }
    const result = await guarded.request(
      { method: "tools/call", params: { name: "wipe", arguments: { p: "/" } } },
      CallToolResultSchema,
    );
    expect(result.isError).toBe(true);
    expect(ran).toEqual([]);
  });
});
