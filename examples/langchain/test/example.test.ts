import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/langchain (pnpm --filter @toolware/example-langchain start)", () => {
  it("runs offline: a block, a redaction and an approval paused then resumed, in createAgent's own loop", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/langchain/src/main.ts"],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/paused +call_3 +send_email +asks: .*send_email/);
    expect(stdout).toMatch(/✔ success call_1 +read_config +billing: .*api_key=\[REDACTED\]/);
    expect(stdout).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(stdout).toMatch(/✖ error +call_2 +drop_table +Tool execution blocked by hook\. Tool: drop_table\. Reason: /);
    expect(stdout).toMatch(/✔ success call_3 +send_email +queued for example\.com/);
    expect(stdout).toMatch(/outcome +call_3 +send_email +ok/);
    expect(stdout.match(/outcome +call_3/g)).toHaveLength(1);
    expect(stdout).toMatch(/model +All done\./);
  }, 60_000);
});
