import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/claude (pnpm --filter @toolware/example-claude start)", () => {
  it("runs offline: rm -rf and a write outside the project denied, a write inside allowed, every call audited", async () => {
    const { stdout } = await run(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/claude/src/main.ts"],
      { cwd: root, timeout: 120_000 },
    );
    expect(stdout).toMatch(/app sees +toolu_rm +Bash +blocked/);
    expect(stdout).toMatch(/app sees +toolu_etc +Write +blocked/);
    expect(stdout).toMatch(/app sees +toolu_notes +Write +ok/);
    expect(stdout).toMatch(/model reads +toolu_rm: .*rm -rf is not allowed here/);
    expect(stdout).toMatch(/model reads +toolu_etc: .*files outside the project may not be written/);
    expect(stdout).toMatch(/audit lines +3/);
    expect(stdout).toContain("final output: All done.");
  }, 120_000);
});
