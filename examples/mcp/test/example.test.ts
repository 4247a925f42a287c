import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/mcp (pnpm --filter @toolware/example-mcp start)", () => {
  it("runs offline: the filesystem server's destructive tools blocked, the secret redacted, per-user policies", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/mcp/src/main.ts"],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/✔ ok +list_directory +\[FILE\] notes\.txt/);
    expect(stdout).toMatch(/✔ ok +read_text_file +deploy on friday \/ api_key=\[REDACTED\]/);
    expect(stdout).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(stdout).toMatch(
      /✖ isError +write_file +Tool execution blocked by hook\. Tool: write_file\. Reason: .*destructive/,
    );
    expect(stdout).toMatch(/✖ isError +move_file +Tool execution blocked/);
    expect(stdout).toMatch(/✔ ok +read_note \(intern\) +ship the adapter/);
    expect(stdout).toMatch(/✖ isError +delete_note \(intern\) +Tool execution blocked/);
    expect(stdout).toMatch(/✔ ok +delete_note \(lead\) +deleted todo\.md/);
  }, 60_000);
});
