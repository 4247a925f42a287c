import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardServer, serveTool } from "./index.js";
import { firstText, link, newClient } from "./test-fixtures.js";

const readNote = defineTool({
  name: "read_note",
  description: "reads a note",
  tags: ["read-only"],
  inputSchema: z.object({ path: z.string(), lines: z.number().default(10) }),
  execute: ({ path, lines }) => ({ path, lines, text: `contents of ${path}` }),
});
const dropNotes = defineTool({
  name: "drop_notes",
  destructive: true,
  inputSchema: z.object({}),
  execute: () => "dropped",
});

describe("serveTool: a toolware tool on an MCP server", () => {
  it("MCP validates with the tool's schema, hooks see the validated input, the client gets text and structure", async () => {
    const hooks = new ToolHooks();
    const inputs: unknown[] = [];
    hooks.before((ctx) => {
      inputs.push({ ...ctx.toolInput });
    });
    const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks);
    serveTool(server, readNote, { title: "Read a note" });
    const client = newClient();
    await link(server, client);
    const { tools } = await client.listTools();
    expect(tools[0]).toMatchObject({ name: "read_note", title: "Read a note", annotations: { readOnlyHint: true } });
    expect(tools[0]?.inputSchema.properties).toHaveProperty("path");
    const result = await client.callTool({ name: "read_note", arguments: { path: "a.md" } });
    expect(inputs).toEqual([{ path: "a.md", lines: 10 }]);
    expect(result.structuredContent).toEqual({ path: "a.md", lines: 10, text: "contents of a.md" });
    expect(JSON.parse(firstText(result))).toEqual(result.structuredContent);
    const invalid = await client.callTool({ name: "read_note", arguments: { path: 7 } });
    expect(invalid.isError).toBe(true);
    expect(inputs).toHaveLength(1);
  });

  it("a destructive tool is advertised destructive (whatever the options say) and guards see the flag", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: [{ destructive: true }] }));
    const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks);
    serveTool(server, dropNotes, { annotations: { destructiveHint: false, readOnlyHint: true } });
    const client = newClient();
    await link(server, client);
    const { tools } = await client.listTools();
    expect(tools[0]?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    const result = await client.callTool({ name: "drop_notes", arguments: {} });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("destructive");
  });

  it("refuses, with codes: an unguarded server, a tool without schema, a non-zod schema", () => {
    const plain = new McpServer({ name: "s", version: "1" });
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return toolwareCode(e);
      }
      return undefined;
    };
    expect(code(() => serveTool(plain, readNote))).toBe("TOOLWARE_MCP_NOT_GUARDED");
    const server = guardServer(new McpServer({ name: "s", version: "1" }), new ToolHooks());
    const bare = defineTool({ name: "bare", execute: () => "x" });
    expect(code(() => serveTool(server, bare))).toBe("TOOLWARE_MCP_NO_INPUT_SCHEMA");
    const valibot = defineTool({ name: "vb", inputSchema: v.object({ a: v.string() }), execute: () => "x" });
    expect(code(() => serveTool(server, valibot))).toBe("TOOLWARE_MCP_UNSUPPORTED_SCHEMA");
    expect(code(() => serveTool(server, {} as never))).toBe("TOOLWARE_INVALID_TOOL");
  });
});
