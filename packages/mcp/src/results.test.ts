import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardClient, guardServer, serveTool } from "./index.js";
import { firstText, link, newClient } from "./test-fixtures.js";

const SECRET = "sk-live-1234567890abcdef";

// What a client gets for one call: the result, or the JSON-RPC error the SDK rejected with.
async function answer(client: Client, name: string, args: Record<string, unknown> = {}) {
  try {
    const result = await client.request(
      { method: "tools/call", params: { name, arguments: args } },
      CallToolResultSchema,
    );
    return { result };
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: (error as Error).message };
  }
}

function register(server: McpServer, value: unknown, outputSchema?: z.ZodRawShape): void {
  server.registerTool(
    "odd",
    { inputSchema: { n: z.number() }, ...(outputSchema === undefined ? {} : { outputSchema }) },
    async () => value as CallToolResult,
  );
}

describe("guardServer keeps the SDK's answer to a handler's malformed result", () => {
  const malformed: unknown[] = [undefined, 42, { content: "str" }, null, "text", { content: [{ type: "nope" }] }];
  for (const [i, value] of malformed.entries()) {
    for (const outputSchema of [undefined, { v: z.string() }]) {
      it(`#${i} ${JSON.stringify(value) ?? "undefined"}${outputSchema ? " (with an output schema)" : ""}: the same answer as the plain SDK`, async () => {
        const plain = new McpServer({ name: "plain", version: "1" });
        register(plain, value, outputSchema);
        const plainClient = newClient();
        await link(plain, plainClient);
        const outcomes: ToolCallOutcome[] = [];
        const guarded = guardServer(new McpServer({ name: "guarded", version: "1" }), new ToolHooks(), {
          onOutcome: (o) => outcomes.push(o),
        });
        register(guarded, value, outputSchema);
        const guardedClient = newClient();
        await link(guarded, guardedClient);
        const expected = await answer(plainClient, "odd", { n: 1 });
        expect(await answer(guardedClient, "odd", { n: 1 })).toEqual(expected);
        expect(expected.result?.isError === true || expected.code === -32602).toBe(true);
        expect(outcomes.map((o) => [o.status, toolwareCode(o.error)])).toEqual([
          ["error", "TOOLWARE_MCP_INVALID_RESULT"],
        ]);
      });
    }
  }
});

describe("guardServer: thrown values", () => {
  it("a handler or bind that throws null, undefined, a Symbol or a revoked Proxy gives an isError result", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const thrown of [null, undefined, Symbol("s"), proxy]) {
      for (const where of ["handler", "bind"]) {
        const outcomes: ToolCallOutcome[] = [];
        const server = guardServer(new McpServer({ name: "s", version: "1" }), new ToolHooks(), {
          onOutcome: (o) => outcomes.push(o),
          ...(where === "bind"
            ? {
                bind: () => {
                  throw thrown;
                },
              }
            : {}),
        });
        server.registerTool("t", { inputSchema: { n: z.number() } }, async () => {
          if (where === "handler") throw thrown;
          return { content: [{ type: "text", text: "ran" }] };
        });
        const client = newClient();
        await link(server, client);
        const result = await client.callTool({ name: "t", arguments: { n: 1 } });
        expect(result.isError, `${where} ${String(typeof thrown)}`).toBe(true);
        expect(firstText(result)).not.toBe("ran");
        expect(outcomes.map((o) => o.status)).toEqual(["error"]);
      }
    }
  });
});

// The SDK's convention: the structured object, and its JSON as the text.
function noteServer(outputSchema: z.ZodRawShape, structured: Record<string, unknown>, text?: string) {
  const server = new McpServer({ name: "notes", version: "1" });
  server.registerTool("note", { inputSchema: { id: z.string() }, outputSchema }, async () => ({
    content: [{ type: "text", text: text ?? JSON.stringify(structured) }],
    structuredContent: structured,
  }));
  return server;
}

describe("a result hooks changed keeps its structuredContent, redacted, valid against the output schema", () => {
  const schema = { owner: z.string(), token: z.string() };
  const structured = { owner: "bob", token: SECRET };

  it("guardClient: redact() rewrites the text and the structured copy; the SDK's own validation passes", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const client = guardClient(newClient(), hooks);
    await link(noteServer(schema, structured), client);
    await client.listTools();
    const result = await client.callTool({ name: "note", arguments: { id: "1" } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ owner: "bob", token: "[REDACTED]" });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("guardServer: the same, as the client sees it (the SDK validates the server's output)", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const server = guardServer(noteServer(schema, structured), hooks);
    const client = newClient();
    await link(server, client);
    await client.listTools();
    const result = await client.callTool({ name: "note", arguments: { id: "1" } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ owner: "bob", token: "[REDACTED]" });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("a redaction that breaks the output schema fails closed (TOOLWARE_MCP_INVALID_RESULT), on both sides", async () => {
    const pinSchema = { owner: z.string(), password: z.number() };
    const pin = { owner: "bob", password: 1234 };
    const outcomes: ToolCallOutcome[] = [];
    const hooks = new ToolHooks();
    hooks.use(redact());
    const client = guardClient(newClient(), hooks, { onOutcome: (o) => outcomes.push(o) });
    await link(noteServer(pinSchema, pin), client);
    await client.listTools();
    const result = await client.callTool({ name: "note", arguments: { id: "1" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("TOOLWARE_MCP_INVALID_RESULT");
    expect(JSON.stringify(result)).not.toContain("1234");
    expect(toolwareCode(outcomes[0]?.error)).toBe("TOOLWARE_MCP_INVALID_RESULT");

    const serverOutcomes: ToolCallOutcome[] = [];
    const guarded = guardServer(noteServer(pinSchema, pin), hooks, { onOutcome: (o) => serverOutcomes.push(o) });
    const plainClient = newClient();
    await link(guarded, plainClient);
    const fromServer = await plainClient.callTool({ name: "note", arguments: { id: "1" } });
    expect(fromServer.isError).toBe(true);
    expect(JSON.stringify(fromServer)).not.toContain("1234");
    expect(toolwareCode(serverOutcomes[0]?.error)).toBe("TOOLWARE_MCP_INVALID_RESULT");
  });

  it("a text that is not the structured JSON: a value equal to the text follows it; one the hooks removed cannot", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const client = guardClient(newClient(), hooks);
    const reader = noteServer({ content: z.string() }, { content: `key ${SECRET}` }, `key ${SECRET}`);
    await link(reader, client);
    await client.listTools();
    const read = await client.callTool({ name: "note", arguments: { id: "1" } });
    expect(read.isError).toBeUndefined();
    expect(read.structuredContent).toEqual({ content: "key [REDACTED]" });

    const other = guardClient(newClient(), hooks);
    await link(noteServer(schema, structured, `owner bob, token ${SECRET}`), other);
    await other.listTools();
    const summary = await other.callTool({ name: "note", arguments: { id: "1" } });
    expect(summary.isError).toBe(true);
    expect(firstText(summary)).toContain("could not be rebuilt");
    expect(JSON.stringify(summary)).not.toContain(SECRET);
  });

  it("serveTool: a plain-object result redacted by redact() stays structured, redacted the same way", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const server = guardServer(new McpServer({ name: "s", version: "1" }), hooks);
    serveTool(
      server,
      defineTool({
        name: "whoami",
        inputSchema: z.object({}),
        execute: async () => ({ user: "bob@example.com", apiKey: SECRET, n: 3 }),
      }),
    );
    const client = newClient();
    await link(server, client);
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toEqual({ user: "[EMAIL-REDACTED]", apiKey: "[REDACTED]", n: 3 });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });
});
