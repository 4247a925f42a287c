import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

const require = createRequire(import.meta.url);
const pkgPath = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
/** The real server-filesystem's bin script, run under this Node. */
export const FS_BIN = join(
  dirname(pkgPath),
  (require(pkgPath) as { bin: Record<string, string> }).bin["mcp-server-filesystem"] ?? "",
);
export const SECRET = "sk-proj-abc123def456ghi789jkl";

/** A policy for the filesystem server: no moves, writes only under drafts/, secrets redacted, every call audited. */
export function fsPolicy(dir: string, extra = ""): string {
  return `version: 1
name: fs-gateway
default: allow
rules:
  - name: no-moves
    match: { tools: [move_file] }
    decide: deny
    reason: moving files is not allowed
  - name: writes-in-drafts
    match: { tools: [write_file, edit_file, create_directory] }
    packs:
      validate: { safePath: { root: ${JSON.stringify(join(dir, "drafts"))}, rewrite: true } }
${extra}  - name: redact-secrets
    packs:
      redact: {}
  - name: audit-all
    packs:
      audit: { file: ./audit.jsonl }
`;
}

/** A temp folder with a secret, a drafts/ subfolder, and the policy file. */
export function workspace(): { dir: string; policyFile: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-gateway-")));
  mkdirSync(join(dir, "drafts"));
  writeFileSync(join(dir, "notes.txt"), `deploy notes\napi_key=${SECRET}\n`);
  const policyFile = join(dir, "toolware.policy.yaml");
  writeFileSync(policyFile, fsPolicy(dir));
  return { dir, policyFile };
}

export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}
