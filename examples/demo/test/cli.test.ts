import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../..", import.meta.url));

// Node warns when NO_COLOR and FORCE_COLOR are both set; the test wants the NO_COLOR path.
function withoutForceColor(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _ignored, ...rest } = env;
  return rest;
}

describe("pnpm demo (the README's first command)", () => {
  it("runs end to end as a program, offline, without colour on a pipe", async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/demo/src/main.ts"],
      { cwd: root, env: withoutForceColor({ ...process.env, NO_COLOR: "1" }), timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout.includes(String.fromCharCode(27))).toBe(false);
    expect(stdout).toMatch(/^toolware demo/);
    expect(stdout).toMatch(/✖ blocked {2}junior_agent {2}delete_file/);
    expect(stdout).toMatch(/Per-tool statistics/);
    expect(stdout).toMatch(/12 tool calls, 4 blocked\./);
  }, 60_000);

  it("runs --ai-sdk offline without a key, saying first that it stays scripted", async () => {
    const { OPENAI_API_KEY: _key, ...env } = withoutForceColor({ ...process.env, NO_COLOR: "1" });
    const { stdout, stderr } = await run(
      process.execPath,
      [
        `${root}node_modules/tsx/dist/cli.mjs`,
        "--conditions",
        "@toolware/source",
        "examples/demo/src/main.ts",
        "--ai-sdk",
      ],
      { cwd: root, env, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^toolware demo — AI SDK mode, still scripted: OPENAI_API_KEY is not set/);
    expect(stdout).toMatch(/✖ blocked {2}junior_agent {2}delete_file/);
    expect(stdout).toMatch(/12 tool calls, 4 blocked\./);
  }, 60_000);

  it("refuses --interactive without a terminal", async () => {
    const failure = await run(
      process.execPath,
      [
        `${root}node_modules/tsx/dist/cli.mjs`,
        "--conditions",
        "@toolware/source",
        "examples/demo/src/main.ts",
        "--interactive",
      ],
      { cwd: root, timeout: 60_000 },
    ).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toMatch(/--interactive needs a terminal/);
  }, 60_000);
});
