// The gateway in front of the real @modelcontextprotocol/server-filesystem, driven by the SDK's own Client: what a
// desktop client would see. Offline: the server runs as a child process of this Node, the client in-process.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { createGateway } from "@toolware/gateway";
import { watchPolicy } from "@toolware/policy";

const require = createRequire(import.meta.url);
const pkg = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
const serverBin = join(
  dirname(pkg),
  (require(pkg) as { bin: Record<string, string> }).bin["mcp-server-filesystem"] ?? "",
);
export const SECRET = "sk-proj-abc123def456ghi789jkl";

/** What the run saw, for the test. */
export interface Summary {
  listed: string[];
  calls: { label: string; isError: boolean; text: string }[];
  /** One entry per audit line: the tool, the status, and the hooks that decided (the policy rule among them). */
  audit: string[];
}

interface AuditLine {
  tool: string;
  status: string;
  hooks: { hook: string; action: string }[];
}

const textOf = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join(" ");

export async function main(print: (line: string) => void = console.log): Promise<Summary> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-example-gateway-")));
  mkdirSync(join(dir, "drafts"));
  writeFileSync(join(dir, "notes.txt"), `deploy notes\napi_key=${SECRET}\n`);
  writeFileSync(join(dir, ".env"), "TOKEN=hush\n");
  const policyFile = join(dir, "toolware.policy.yaml");
  const template = readFileSync(new URL("./toolware.policy.yaml", import.meta.url), "utf8");
  // The filesystem policy of docs/gateway.md, as the page shows it: only its folder is this run's.
  writeFileSync(policyFile, template.replaceAll("/Users/me/work", dir));

  const policy = await watchPolicy(policyFile);
  const hooks = new ToolHooks();
  hooks.use(policy);
  const gateway = createGateway({
    upstreams: [{ name: "fs", command: process.execPath, args: [serverBin, dir] }],
    hooks,
    policy,
  });
  const client = new Client({ name: "example", version: "1.0.0" });
  const summary: Summary = { listed: [], calls: [], audit: [] };
  try {
    await gateway.start();
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    await gateway.connect(ours);
    await client.connect(theirs);
    summary.listed = (await client.listTools()).tools.map((t) => t.name);
    print(`listed: ${summary.listed.join(", ")}`);
    const call = async (label: string, name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      const entry = { label, isError: result.isError === true, text: textOf(result) };
      summary.calls.push(entry);
      print(`${label}: ${entry.isError ? "refused" : "ok"} — ${entry.text.slice(0, 100).replace(/\n/g, " ")}`);
    };
    await call("move_file (hidden)", "move_file", { source: "notes.txt", destination: "x.txt" });
    await call("write ../escape.txt", "write_file", { path: "../escape.txt", content: "x" });
    await call("write draft.txt", "write_file", { path: "draft.txt", content: "a draft" });
    await call("read notes.txt", "read_text_file", { path: join(dir, "notes.txt") });
    await call("read .env", "read_text_file", { path: join(dir, ".env") });
    writeFileSync(
      policyFile,
      `${readFileSync(policyFile, "utf8")}  - name: no-notes\n    match: { tools: [read_text_file] }\n    decide: deny\n    reason: the notes are private today\n`,
    );
    await policy.reload();
    gateway.toolsChanged();
    await call("read notes.txt after the edit", "read_text_file", { path: join(dir, "notes.txt") });
    // The policy's audit pack wrote a line per call the chain ran, each naming the rule that decided it.
    summary.audit = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditLine)
      .map((r) => `${r.tool} ${r.status}: ${r.hooks.map((h) => `${h.hook} ${h.action}`).join(", ")}`);
    for (const line of summary.audit) print(`audit: ${line}`);
    return summary;
  } finally {
    policy.close();
    await client.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
