import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardClient } from "./index.js";
import { firstText, newClient } from "./test-fixtures.js";

// The real third-party server from the npm registry, started as its bin script under this Node.
const require = createRequire(import.meta.url);
const pkgPath = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
const bin = join(
  dirname(pkgPath),
  (require(pkgPath) as { bin: Record<string, string> }).bin["mcp-server-filesystem"] ?? "",
);
const SECRET = "sk-proj-abc123def456ghi789jkl";

describe("guardClient in front of @modelcontextprotocol/server-filesystem over stdio", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-mcp-fs-")));
  const outcomes: ToolCallOutcome[] = [];
  const hooks = new ToolHooks();
  hooks.use(guardrails({ deny: [{ destructive: true }] }));
  hooks.use(redact());
  const client = guardClient(newClient(), hooks, { onOutcome: (o) => outcomes.push(o) });

  beforeAll(async () => {
    writeFileSync(join(dir, "notes.txt"), `deploy notes\napi_key=${SECRET}\n`);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, dir], stderr: "ignore" }));
  }, 30_000);
  afterAll(async () => {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("blocks every tool the server annotates destructiveHint; the files stay as they were", async () => {
    const { tools } = await client.listTools();
    const destructive = tools.filter((t) => t.annotations?.destructiveHint === true).map((t) => t.name);
    // In 2026.8.31: write_file, edit_file and move_file; create_directory says destructiveHint: false.
    expect(destructive).toEqual(expect.arrayContaining(["write_file", "edit_file", "move_file"]));
    const calls: Record<string, Record<string, unknown>> = {
      write_file: { path: join(dir, "notes.txt"), content: "overwritten" },
      edit_file: { path: join(dir, "notes.txt"), edits: [{ oldText: "deploy", newText: "gone" }] },
      move_file: { source: join(dir, "notes.txt"), destination: join(dir, "moved.txt") },
    };
    for (const name of destructive) {
      const result = await client.callTool({ name, arguments: calls[name] ?? {} });
      expect(result.isError, name).toBe(true);
      expect(firstText(result)).toContain("blocked");
      expect(firstText(result)).toContain("destructive");
    }
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toContain("deploy notes");
    expect(outcomes.filter((o) => o.status === "blocked").map((o) => o.toolName)).toEqual(destructive);
  });

  it("allows reads, and redacts the planted secret from what the client returns", async () => {
    const listing = await client.callTool({ name: "list_directory", arguments: { path: dir } });
    expect(listing.isError).toBeFalsy();
    expect(firstText(listing)).toContain("notes.txt");
    const read = await client.callTool({ name: "read_text_file", arguments: { path: join(dir, "notes.txt") } });
    expect(read.isError).toBeFalsy();
    expect(firstText(read)).toContain("deploy notes");
    expect(firstText(read)).toContain("[REDACTED]");
    expect(JSON.stringify(read)).not.toContain(SECRET);
    // read_text_file declares an output schema: its structured copy is redacted too, and still valid.
    expect(read.structuredContent).toEqual({ content: firstText(read) });
  });

  it("no path around the guard: the prototype's callTool, a raw request, callToolStream are all blocked", async () => {
    const target = join(dir, "notes.txt");
    const args = { path: target, content: "overwritten" };
    const before = outcomes.length;
    const viaPrototype = await Client.prototype.callTool.call(client, { name: "write_file", arguments: args });
    const viaRequest = await client.request(
      { method: "tools/call", params: { name: "write_file", arguments: args } },
      CallToolResultSchema,
    );
    const streamed: unknown[] = [];
    for await (const m of client.experimental.tasks.callToolStream({ name: "write_file", arguments: args })) {
      streamed.push(m.type === "result" ? m.result : m);
    }
    for (const result of [viaPrototype, viaRequest, streamed[0]]) {
      expect((result as { isError?: boolean }).isError).toBe(true);
      expect(firstText(result)).toContain("blocked");
    }
    expect(readFileSync(target, "utf8")).toContain("deploy notes");
    expect(outcomes.slice(before).map((o) => o.status)).toEqual(["blocked", "blocked", "blocked"]);
  });

  it("arguments that are no object end TOOLWARE_INVALID_INPUT before the server sees them", async () => {
    const result = await client.callTool({ name: "read_text_file", arguments: "notes.txt" as never });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("TOOLWARE_INVALID_INPUT");
    expect(outcomes.at(-1)?.status).toBe("error");
  });

  it("a non-destructive write (create_directory, destructiveHint: false) is not blocked", async () => {
    const result = await client.callTool({ name: "create_directory", arguments: { path: join(dir, "sub") } });
    expect(result.isError).toBeFalsy();
  });
});
