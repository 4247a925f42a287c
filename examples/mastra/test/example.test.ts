import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
// Mastra declares node >= 22.13: the gate's Node 22 leg runs the example, the Node 20 leg checks it says so.
const mastraNode = major > 22 || (major === 22 && minor >= 13);
const start = () =>
  run(
    process.execPath,
    [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/mastra/src/main.ts"],
    { cwd: root, timeout: 90_000 },
  );

describe("examples/mastra (pnpm --filter @toolware/example-mastra start)", () => {
  it.runIf(mastraNode)(
    "runs offline: a blocked call, redaction, and an approval through approveToolCall",
    async () => {
      const { stdout, stderr } = await start();
      expect(stderr).toBe("");
      expect(stdout).toMatch(/app sees +call_drop drop_database blocked/);
      expect(stdout).toMatch(/suspended, waiting for approval: call_delete delete_file \{"path":"notes.txt"\}/);
      expect(stdout).toMatch(/app sees +call_delete delete_file ok/);
      expect(stdout).toMatch(/model reads +call_read "deploy on friday \/ api_key=\[REDACTED\]"/);
      expect(stdout).toMatch(/model reads +call_drop "Tool execution blocked by hook\. Tool: drop_database\. Reason: /);
      expect(stdout).toMatch(/model reads +call_delete "deleted notes\.txt"/);
      expect(stdout).not.toContain("sk-proj-abc123def456ghi789jkl");
      expect(stdout).toContain("final output: All done.");
    },
    90_000,
  );

  it.skipIf(mastraNode)(
    "on an older Node, says it needs Node 22.13 and exits 0",
    async () => {
      const { stdout } = await start();
      expect(stdout).toMatch(/^examples\/mastra: skipped, Mastra needs Node 22\.13 or later/);
    },
    90_000,
  );
});
