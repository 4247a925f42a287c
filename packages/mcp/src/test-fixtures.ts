import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** A server with three tools whose handlers record what they received. */
export function filesServer(): { server: McpServer; seen: { tool: string; args: unknown; meta: unknown }[] } {
  const server = new McpServer({ name: "files", version: "1.0.0" });
  const seen: { tool: string; args: unknown; meta: unknown }[] = [];
  server.registerTool(
    "read_note",
    { description: "reads a note", inputSchema: { path: z.string() }, annotations: { readOnlyHint: true } },
    async ({ path }, extra) => {
      seen.push({ tool: "read_note", args: { path }, meta: extra._meta });
      return { content: [{ type: "text", text: `note ${path}: token sk-live-1234567890abcdef` }] };
    },
  );
  server.registerTool(
    "delete_note",
    { inputSchema: { path: z.string() }, annotations: { destructiveHint: true } },
    async ({ path }, extra) => {
      seen.push({ tool: "delete_note", args: { path }, meta: extra._meta });
      return { content: [{ type: "text", text: `deleted ${path}` }] };
    },
  );
  server.registerTool("broken", { inputSchema: { why: z.string() } }, async ({ why }) => ({
    content: [{ type: "text", text: `broken: ${why}` }],
    isError: true,
  }));
  return { server, seen };
}

/** Connects a client and a server over the SDK's in-memory transport. */
export async function link(
  server: McpServer,
  client: Client,
  tweakClientSide?: (transport: InMemoryTransport) => void,
): Promise<void> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  tweakClientSide?.(clientSide);
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
}

export function newClient(capabilities: ConstructorParameters<typeof Client>[1] = {}): Client {
  return new Client({ name: "test-client", version: "1.0.0" }, capabilities);
}

/** The text of a tool result's first part. */
export function firstText(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  const part = content?.[0];
  return part?.type === "text" ? (part.text ?? "") : "";
}
