import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { HookFailedError, type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardClient } from "./index.js";
import { filesServer, firstText, link, newClient } from "./test-fixtures.js";

function denyDestructive(outcomes: ToolCallOutcome[] = []) {
  const hooks = new ToolHooks();
  hooks.use(guardrails({ deny: [{ destructive: true }] }));
  return { hooks, onOutcome: (o: ToolCallOutcome) => outcomes.push(o) };
}

async function guardedPair(connectFirst = false) {
  const outcomes: ToolCallOutcome[] = [];
  const { hooks, onOutcome } = denyDestructive(outcomes);
  const { server, seen } = filesServer();
  let client = newClient();
  if (connectFirst) await link(server, client);
  client = guardClient(client, hooks, { onOutcome });
  if (!connectFirst) await link(server, client);
  return { client, seen, outcomes };
}

describe("guardClient guards tools/call at the protocol level: no way around the chain", () => {
  for (const connectFirst of [false, true]) {
    const when = connectFirst ? "guarded after connect" : "guarded before connect";
    it(`Client.prototype.callTool.call(client, …) goes through the chain (${when})`, async () => {
      const { client, seen, outcomes } = await guardedPair(connectFirst);
      const result = await Client.prototype.callTool.call(client, { name: "delete_note", arguments: { path: "a" } });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain("blocked");
      expect(seen).toEqual([]);
      expect(outcomes.map((o) => [o.toolName, o.status])).toEqual([["delete_note", "blocked"]]);
    });
  }

  it("a raw client.request({ method: 'tools/call' }) goes through the chain", async () => {
    const { client, seen, outcomes } = await guardedPair();
    const result = await client.request(
      { method: "tools/call", params: { name: "delete_note", arguments: { path: "a" } } },
      CallToolResultSchema,
    );
    expect(result.isError).toBe(true);
    expect(seen).toEqual([]);
    const read = await client.request(
      { method: "tools/call", params: { name: "read_note", arguments: { path: "b" } } },
      CallToolResultSchema,
    );
    expect(read.isError).toBeUndefined();
    expect(seen.map((s) => s.tool)).toEqual(["read_note"]);
    expect(outcomes.map((o) => o.status)).toEqual(["blocked", "ok"]);
  });

  it("experimental.tasks.callToolStream goes through the chain", async () => {
    const { client, seen } = await guardedPair();
    const messages: { type: string; result?: unknown }[] = [];
    for await (const m of client.experimental.tasks.callToolStream({ name: "delete_note", arguments: { path: "a" } })) {
      messages.push(m);
    }
    expect(messages.map((m) => m.type)).toEqual(["result"]);
    expect(firstText(messages[0]?.result)).toContain("blocked");
    expect(seen).toEqual([]);
  });

  it("a task-augmented tools/call is refused (TOOLWARE_MCP_UNGUARDABLE_CALL): never sent, the app hears of it", async () => {
    const { client, seen, outcomes } = await guardedPair();
    const sent = client.request(
      { method: "tools/call", params: { name: "read_note", arguments: { path: "a" } } },
      CreateTaskResultSchema,
      { task: { ttl: 60_000 } },
    );
    await expect(sent).rejects.toThrow(/TOOLWARE_MCP_UNGUARDABLE_CALL/);
    const stream = client.experimental.tasks.callToolStream(
      { name: "delete_note", arguments: { path: "a" } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const types: string[] = [];
    for await (const m of stream) types.push(m.type);
    expect(types).toEqual(["error"]);
    expect(seen).toEqual([]);
    expect(outcomes.map((o) => toolwareCode(o.error))).toEqual([
      "TOOLWARE_MCP_UNGUARDABLE_CALL",
      "TOOLWARE_MCP_UNGUARDABLE_CALL",
    ]);
  });

  it("a server's answer to a call whose chain is still running never reaches the caller", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A scripted peer speaking raw JSON-RPC: it answers initialize, then forges a result for the
    // tools/call id it expects while the chain is still waiting in a before-hook.
    let nextId = 0;
    const forged: JSONRPCMessage[] = [];
    serverSide.onmessage = (message) => {
      const m = message as { id?: number; method?: string };
      if (m.method === "initialize") {
        nextId = (m.id ?? 0) + 1;
        void serverSide.send({
          jsonrpc: "2.0",
          id: m.id ?? 0,
          result: {
            protocolVersion: "2025-06-18",
            capabilities: { tools: {} },
            serverInfo: { name: "x", version: "1" },
          },
        });
      } else if (m.method === "tools/list") {
        void serverSide.send({ jsonrpc: "2.0", id: m.id ?? 0, result: { tools: [] } });
      } else if (m.method === "tools/call") {
        forged.push(message);
      }
    };
    await serverSide.start();
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const hooks = new ToolHooks();
    hooks.before(async () => {
      await hold;
      return false;
    });
    const client = guardClient(newClient(), hooks);
    await client.connect(clientSide);
    const pending = client.callTool({ name: "anything", arguments: {} });
    await new Promise((r) => setTimeout(r, 20));
    for (let id = nextId; id < nextId + 4; id++) {
      await serverSide.send({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "forged" }] } });
    }
    release();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(firstText(result)).not.toContain("forged");
    expect(forged).toEqual([]);
  });
});

describe("guardClient: callTool resolves, whatever it is given", () => {
  it("an empty tool name, params that are no object, a revoked Proxy: isError results the app hears of", async () => {
    const { client, seen, outcomes } = await guardedPair();
    const { proxy, revoke } = Proxy.revocable({ name: "read_note" }, {});
    revoke();
    for (const params of [{ name: "" }, null, 42, proxy, { name: "read_note", arguments: { path: "a" }, _meta: "x" }]) {
      const result = await client.callTool(params as never);
      expect(result.isError, String(typeof params)).toBe(true);
    }
    expect(seen).toEqual([]);
    expect(outcomes).toHaveLength(5);
    expect(outcomes.every((o) => o.status === "error")).toBe(true);
  });

  it("arguments that are no object end TOOLWARE_INVALID_INPUT on every path; the server never runs", async () => {
    const { client, seen, outcomes } = await guardedPair();
    const send = [
      (args: unknown) => client.callTool({ name: "read_note", arguments: args as never }),
      (args: unknown) => Client.prototype.callTool.call(client, { name: "read_note", arguments: args as never }),
      (args: unknown) =>
        client.request(
          { method: "tools/call", params: { name: "read_note", arguments: args as never } },
          CallToolResultSchema,
        ),
    ];
    for (const call of send) {
      for (const args of ["hello", [1, 2], 7, null]) {
        const result = await call(args);
        expect(result.isError).toBe(true);
        expect(firstText(result)).toContain("TOOLWARE_INVALID_INPUT");
      }
    }
    expect(seen).toEqual([]);
    expect(outcomes).toHaveLength(12);
    expect(outcomes.every((o) => toolwareCode(o.error) === "TOOLWARE_INVALID_INPUT")).toBe(true);
  });

  it("whatever the params (fast-check), callTool on the instance or the prototype resolves; no object, no run", async () => {
    const { client, seen } = await guardedPair();
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.boolean(), async (args, viaPrototype) => {
        const before = seen.length;
        const params = { name: "read_note", arguments: args as never };
        const result = viaPrototype
          ? await Client.prototype.callTool.call(client, params)
          : await client.callTool(params);
        const readable = args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args));
        if (!readable) {
          expect(result.isError).toBe(true);
          expect(seen.length).toBe(before);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("only a 'throw'-policy hook makes callTool reject, with the hook's own error", async () => {
    const hooks = new ToolHooks();
    hooks.before(
      () => {
        throw new Error("policy store down");
      },
      { onError: "throw" },
    );
    const { server, seen } = filesServer();
    const client = guardClient(newClient(), hooks);
    await link(server, client);
    await expect(client.callTool({ name: "read_note", arguments: { path: "a" } })).rejects.toBeInstanceOf(
      HookFailedError,
    );
    await expect(
      client.request(
        { method: "tools/call", params: { name: "read_note", arguments: { path: "a" } } },
        CallToolResultSchema,
      ),
    ).rejects.toThrow(/policy store down/);
    expect(seen).toEqual([]);
  });

  it("hooks that throw null, undefined, a Symbol or a revoked Proxy fail the call closed", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const thrown of [null, undefined, Symbol("x"), proxy]) {
      const hooks = new ToolHooks();
      hooks.before(() => {
        throw thrown;
      });
      const { server, seen } = filesServer();
      const client = guardClient(newClient(), hooks, {
        bind: () => {
          throw thrown;
        },
      });
      await link(server, client);
      const result = await client.callTool({ name: "read_note", arguments: { path: "a" } });
      expect(result.isError).toBe(true);
      expect(seen).toEqual([]);
    }
  });

  it("a caller's timeout resolves isError without waiting for the hooks; the call is never sent, onOutcome hears it", async () => {
    const { server, seen } = filesServer();
    const outcomes: ToolCallOutcome[] = [];
    const hooks = new ToolHooks();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    hooks.before(() => held);
    const client = guardClient(newClient(), hooks, { onOutcome: (o) => outcomes.push(o) });
    await link(server, client);
    const result = await client.callTool({ name: "read_note", arguments: { path: "a" } }, undefined, { timeout: 20 });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/timed out/i);
    expect(outcomes).toEqual([]);
    release();
    await expect.poll(() => outcomes.map((o) => o.status)).toEqual(["error"]);
    expect(seen).toEqual([]);
  });
});

describe("guarding twice is refused", () => {
  it("an object that only looks like a Client is refused: TOOLWARE_MCP_UNSUPPORTED_SDK, not a guard that guards nothing", () => {
    const lookalike = { callTool: async () => ({ content: [] }), listTools: async () => ({ tools: [] }) };
    expect(() => guardClient(lookalike as never, new ToolHooks())).toThrow(
      expect.objectContaining({ code: "TOOLWARE_MCP_UNSUPPORTED_SDK" }),
    );
  });

  it("a client, or a Proxy of it, is guarded once: TOOLWARE_MCP_ALREADY_GUARDED", () => {
    const client = guardClient(newClient(), new ToolHooks());
    for (const again of [client, new Proxy(client, {})]) {
      expect(() => guardClient(again, new ToolHooks())).toThrow(
        expect.objectContaining({ code: "TOOLWARE_MCP_ALREADY_GUARDED" }),
      );
    }
  });
});
