import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { guardServer, readToolwareMeta, serveTool, TOOLWARE_META } from "@toolware/mcp";
import { guardrails } from "@toolware/packs/guardrails";
import { z } from "zod";
import { type Line, line } from "./report.js";

/** A notes server whose policies depend on who calls: the client says so in `_meta`. */
export async function serverPart(): Promise<Line[]> {
  const intern = new Agent({ role: "intern" });
  const lead = new Agent({ role: "lead" });
  const agents = new Map([
    ["intern", intern],
    ["lead", lead],
  ]);
  const hooks = new ToolHooks();
  hooks.use(guardrails({ byRole: { intern: { deny: [{ destructive: true }] } } }));
  const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks, {
    // The client's word picks among the server's own agents; an unknown role gets none.
    bind: ({ meta }) => ({ agent: agents.get(readToolwareMeta(meta).agent ?? "") }),
  });
  const notes = new Map([["todo.md", "ship the adapter"]]);
  // A toolware tool, served as it is: MCP validates with its zod schema, the chain runs around it.
  serveTool(
    server,
    defineTool({
      name: "read_note",
      tags: ["read-only"],
      inputSchema: z.object({ name: z.string() }),
      execute: ({ name }) => notes.get(name) ?? "(no such note)",
    }),
  );
  server.registerTool(
    "delete_note",
    { inputSchema: { name: z.string() }, annotations: { destructiveHint: true } },
    ({ name }) => {
      notes.delete(name);
      return { content: [{ type: "text", text: `deleted ${name}` }] };
    },
  );

  const client = new Client({ name: "example", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const as = (role: string) => ({ [TOOLWARE_META.agent]: role });
  const lines = [
    line(
      "read_note (intern)",
      await client.callTool({ name: "read_note", arguments: { name: "todo.md" }, _meta: as("intern") }),
    ),
    line(
      "delete_note (intern)",
      await client.callTool({ name: "delete_note", arguments: { name: "todo.md" }, _meta: as("intern") }),
    ),
    line(
      "delete_note (lead)",
      await client.callTool({ name: "delete_note", arguments: { name: "todo.md" }, _meta: as("lead") }),
    ),
  ];
  await client.close();
  return lines;
}
