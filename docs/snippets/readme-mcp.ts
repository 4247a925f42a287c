// snippet: readme-mcp.ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolHooks } from "@toolware/core";
import { guardClient, guardServer } from "@toolware/mcp";

declare const hooks: ToolHooks;
export const client = guardClient(new Client({ name: "my-app", version: "1.0.0" }), hooks); // the tool calls it sends
export const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks); // every tool it serves
