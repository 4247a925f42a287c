import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolHooks } from "@toolware/core";
import { guardClient } from "@toolware/mcp";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { type Line, line } from "./report.js";

// The filesystem server's bin script, run by this Node: no network, no global install.
function serverScript(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
  const bin = (require(pkg) as { bin: Record<string, string> }).bin["mcp-server-filesystem"] ?? "dist/index.js";
  return join(dirname(pkg), bin);
}

/** A guarded client in front of @modelcontextprotocol/server-filesystem on a fresh temporary folder. */
export async function filesystemPart(): Promise<Line[]> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-example-mcp-")));
  writeFileSync(join(dir, "notes.txt"), "deploy on friday\napi_key=sk-proj-abc123def456ghi789jkl\n");
  const hooks = new ToolHooks();
  // `destructive` comes from the server's destructiveHint: annotations may only tighten a guard.
  hooks.use(guardrails({ deny: [{ destructive: true }] }));
  hooks.use(redact());
  const client = guardClient(new Client({ name: "example", version: "1.0.0" }), hooks);
  const lines: Line[] = [];
  try {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [serverScript(), dir], stderr: "ignore" }),
    );
    const calls: [string, Record<string, unknown>][] = [
      ["list_directory", { path: dir }],
      ["read_text_file", { path: join(dir, "notes.txt") }],
      ["write_file", { path: join(dir, "notes.txt"), content: "wiped" }],
      ["move_file", { source: join(dir, "notes.txt"), destination: join(dir, "gone.txt") }],
    ];
    for (const [name, args] of calls) lines.push(line(name, await client.callTool({ name, arguments: args })));
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
