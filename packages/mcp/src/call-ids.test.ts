import type { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type ToolCallHookContext, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { guardClient, guardServer, mcpClientCall, mcpServerCall, TOOLWARE_META } from "./index.js";
import { filesServer, firstText, link, newClient } from "./test-fixtures.js";

// Events and hooks record the call id they saw.
function recording(hooks: ToolHooks) {
  const seen = { start: [] as string[], end: [] as string[], hook: [] as string[], tool: [] as string[] };
  hooks.on("call:start", ({ ctx }) => seen.start.push(ctx.callId));
  hooks.on("call:end", ({ outcome }) => seen.end.push(outcome.callId));
  hooks.before((ctx) => {
    seen.hook.push(ctx.callId);
  });
  return seen;
}

describe("call ids and the framework's context", () => {
  it("client: the caller's toolware/callId (the model's id) is the call id in hooks, events and the outcome", async () => {
    const hooks = new ToolHooks();
    const seen = recording(hooks);
    const frames: unknown[] = [];
    hooks.before((ctx) => {
      frames.push(mcpClientCall(ctx)?.annotations);
    });
    const outcomes: ToolCallOutcome[] = [];
    const { server } = filesServer();
    const client = guardClient(newClient(), hooks, { onOutcome: (o) => outcomes.push(o) });
    await link(server, client);
    await client.callTool({
      name: "read_note",
      arguments: { path: "a" },
      _meta: { [TOOLWARE_META.callId]: "call_abc" },
    });
    await client.callTool({ name: "read_note", arguments: { path: "b" } });
    const own = outcomes[1]?.callId ?? "";
    expect(own).toMatch(/^mcp-/);
    expect(seen.start).toEqual(["call_abc", own]);
    expect(seen.hook).toEqual(["call_abc", own]);
    expect(seen.end).toEqual(["call_abc", own]);
    expect(outcomes[0]?.callId).toBe("call_abc");
    expect(frames).toEqual([{ readOnlyHint: true }, { readOnlyHint: true }]);
  });

  it("client: a toolware/callId core refuses fails the call closed", async () => {
    const { server, seen } = filesServer();
    const client = guardClient(newClient(), new ToolHooks());
    await link(server, client);
    const result = await client.callTool({
      name: "read_note",
      arguments: { path: "a" },
      _meta: { [TOOLWARE_META.callId]: "x".repeat(1000) },
    });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("callId");
    expect(seen).toEqual([]);
  });

  it("server: MCP's request id is the call id; hooks read the request, authInfo included", async () => {
    const hooks = new ToolHooks();
    const seen = recording(hooks);
    const requests: { requestId: string; clientId: string | undefined; toolName: string | undefined }[] = [];
    hooks.before((ctx: ToolCallHookContext) => {
      const call = mcpServerCall(ctx);
      requests.push({
        requestId: String(call?.extra.requestId),
        clientId: call?.authInfo?.clientId,
        toolName: call?.toolName,
      });
    });
    const { server } = filesServer();
    guardServer(server, hooks);
    const client = newClient();
    // What an authenticating HTTP transport would attach: here the in-memory one carries it.
    const authInfo = { token: "t", clientId: "alice", scopes: ["notes:read"] };
    await link(server, client, (transport: InMemoryTransport) => {
      const send = transport.send.bind(transport);
      transport.send = (message, options) => send(message, { ...options, authInfo });
    });
    await client.callTool({ name: "read_note", arguments: { path: "a" } });
    await client.callTool({ name: "read_note", arguments: { path: "b" } });
    expect(requests.map((r) => r.clientId)).toEqual(["alice", "alice"]);
    expect(requests.map((r) => r.toolName)).toEqual(["read_note", "read_note"]);
    expect(seen.start).toEqual(requests.map((r) => r.requestId));
    expect(seen.end).toEqual(seen.start);
    expect(new Set(seen.start).size).toBe(2);
  });
});
