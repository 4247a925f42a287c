// snippet: adapters-mcp-3.ts
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { defineTool, ToolHooks } from "@toolware/core";
import { guardServer, serveTool } from "@toolware/mcp";
import { z } from "zod";

const readNote = defineTool({
  name: "read_note",
  tags: ["read-only"], // advertised as readOnlyHint; `destructive: true` as destructiveHint
  inputSchema: z.object({ path: z.string(), lines: z.number().default(20) }),
  execute: ({ path, lines }) => ({ path, lines, text: `first ${lines} lines of ${path}` }),
});

const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), new ToolHooks());
serveTool(server, readNote); // a plain-object result also goes out as structuredContent
