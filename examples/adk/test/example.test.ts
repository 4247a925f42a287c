import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/adk (pnpm --filter @toolware/example-adk start)", () => {
  it("runs offline: a blocked call, redaction, and an approval through ADK's tool confirmation", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/adk/src/main.ts"],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/app sees +call_drop +drop_database +blocked/);
    expect(stdout).toMatch(/paused, waiting for confirmation: adk-/);
    expect(stdout).toMatch(/model reads +call_read +\{"text":"deploy on friday \/ api_key=\[REDACTED\]"\}/);
    expect(stdout).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(stdout).toMatch(
      /model reads +call_drop +\{"error":"Tool execution blocked by hook\. Tool: drop_database\. Reason: /,
    );
    expect(stdout).toMatch(/app sees +call_delete +delete_file +ok/);
    expect(stdout).toMatch(/model reads +call_delete +\{"deleted":"notes\.txt"\}/);
    expect(stdout).toContain("final output: All done.");
  }, 60_000);
});
