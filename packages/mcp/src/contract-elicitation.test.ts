import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { elicitationHumanInput, guardServer } from "./index.js";
import { link, newClient } from "./test-fixtures.js";

// The client's user answers questions about the calls its client makes, and about nothing else.
async function setup() {
  const hooks = new ToolHooks({ humanInput: elicitationHumanInput() });
  hooks.use(approval({ tools: { destructive: true } }));
  const liveIds: string[] = [];
  hooks.before((ctx) => {
    if (ctx.toolName === "slow") liveIds.push(ctx.callId);
  });
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = guardServer(new McpServer({ name: "s", version: "1.0.0" }), hooks);
  server.registerTool("slow", { inputSchema: { n: z.number() } }, async () => {
    await gate;
    return { content: [{ type: "text", text: "done" }] };
  });
  const asked: string[] = [];
  const client = newClient({ capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { answer: "yes" } };
  });
  await link(server, client);
  return { hooks, client, liveIds, release, asked };
}

const dropTable = defineTool({ name: "drop_table", destructive: true, execute: () => "dropped" });

describe("elicitationHumanInput: only a call running in the guarded server asks its client", () => {
  it("a call from elsewhere that carries a live server call's id is denied, its question never sent", async () => {
    const { hooks, client, liveIds, release, asked } = await setup();
    const running = client.callTool({ name: "slow", arguments: { n: 1 } });
    for (let i = 0; i < 50 && liveIds.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const [id] = liveIds;
    expect(id).toBeDefined();
    const outcome = await hooks.invoke(dropTable, {}, { callId: id as string });
    release();
    await running;
    expect(asked).toEqual([]);
    expect(outcome.status).toBe("blocked");
  });

  it("a nested call made by a server tool's own code is not asked through the client either", async () => {
    const hooks = new ToolHooks({ humanInput: elicitationHumanInput() });
    hooks.use(approval({ tools: { destructive: true } }));
    const server = guardServer(new McpServer({ name: "s", version: "1.0.0" }), hooks);
    const nested: string[] = [];
    server.registerTool("outer", { inputSchema: { n: z.number() } }, async () => {
      const inner = await hooks.invoke(dropTable, {});
      nested.push(inner.status);
      return { content: [{ type: "text", text: inner.status }] };
    });
    const asked: string[] = [];
    const client = newClient({ capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { answer: "yes" } };
    });
    await link(server, client);
    const result = await client.callTool({ name: "outer", arguments: { n: 1 } });
    expect(result.isError).toBeUndefined();
    expect(nested).toEqual(["blocked"]);
    expect(asked).toEqual([]);
  });
});
