import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardServer } from "./index.js";
import { firstText, link, newClient } from "./test-fixtures.js";

// Whatever the app does with its tools after guarding, each one it serves runs the chain.
describe("guardServer: tools changed after guarding stay guarded", () => {
  it("renamed, removed and registered again, registered with the deprecated tool(), or without an input schema", async () => {
    const hooks = new ToolHooks();
    const names: string[] = [];
    hooks.before((ctx) => {
      names.push(ctx.toolName);
      ctx.block("closed");
    });
    const server = guardServer(new McpServer({ name: "s", version: "1.0.0" }), hooks);
    const ran: string[] = [];
    const renamed = server.registerTool("old_name", { inputSchema: { a: z.string() } }, async () => {
      ran.push("renamed");
      return { content: [{ type: "text", text: "x" }] };
    });
    renamed.update({ name: "new_name" });
    const removed = server.registerTool("again", { inputSchema: { a: z.string() } }, async () => {
      ran.push("first");
      return { content: [{ type: "text", text: "x" }] };
    });
    removed.remove();
    server.registerTool("again", { inputSchema: { a: z.string() } }, async () => {
      ran.push("second");
      return { content: [{ type: "text", text: "x" }] };
    });
    server.tool("legacy", { a: z.string() }, async () => {
      ran.push("legacy");
      return { content: [{ type: "text", text: "x" }] };
    });
    server.registerTool("no_input", {}, async () => {
      ran.push("no_input");
      return { content: [{ type: "text", text: "x" }] };
    });
    const client = newClient();
    await link(server, client);
    for (const name of ["new_name", "again", "legacy", "no_input"]) {
      const result = await client.callTool({ name, arguments: name === "no_input" ? {} : { a: "1" } });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toContain("closed");
    }
    expect(ran).toEqual([]);
    expect(names).toEqual(["new_name", "again", "legacy", "no_input"]);
  });
});
