import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/openai-agents (pnpm --filter @toolware/example-openai-agents start)", () => {
  it("runs offline: a blocked call, redaction, and an approval resumed from serialised state", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        `${root}node_modules/tsx/dist/cli.mjs`,
        "--conditions",
        "@toolware/source",
        "examples/openai-agents/src/main.ts",
      ],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/app sees +call_drop +drop_database +blocked/);
    expect(stdout).toMatch(/interrupted, waiting for approval: call_delete\n/);
    expect(stdout).toMatch(/model reads +call_read +deploy on friday \/ api_key=\[REDACTED\]/);
    expect(stdout).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(stdout).toMatch(/model reads +call_drop +Tool execution blocked by hook\. Tool: drop_database\. Reason: /);
    expect(stdout).toMatch(/app sees +call_delete +delete_file +ok/);
    expect(stdout).toMatch(/model reads +call_delete +deleted notes\.txt/);
    expect(stdout).toContain("final output: All done.");
  }, 60_000);
});
