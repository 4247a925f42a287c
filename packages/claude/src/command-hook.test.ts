// `toolware hook claude-code` configured in .claude/settings.json of a project, run by the real Claude Code (`claude -p`)
// against the scripted Messages API: the settings Claude Code reads, the command it runs, the decision it takes.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { claudeBinary, offlineEnv, scriptedApi, tempDir, toolResults } from "./test-fixtures.js";

const binary = claudeBinary();
const root = fileURLToPath(new URL("../../..", import.meta.url));
const cliBin = join(root, "packages/cli/src/bin.ts");
const loader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function claude(
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(binary as string, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      out += chunk;
    });
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe.skipIf(binary === undefined)("Claude Code runs `toolware hook claude-code` from .claude/settings.json", () => {
  it("denies rm -rf (Claude reads why); an ordinary command goes to Claude Code's own permission rules; all audited", {
    timeout: 180_000,
  }, async () => {
    const api = await scriptedApi([
      { tool: "Bash", id: "toolu_rm", input: { command: "rm -rf victim", description: "clean" } },
      { tool: "Bash", id: "toolu_unasked", input: { command: "touch other.txt", description: "touch" } },
      { tool: "Bash", id: "toolu_ok", input: { command: "touch made.txt", description: "touch" } },
    ]);
    const home = tempDir("toolware-hook-home-");
    const project = tempDir("toolware-hook-project-");
    cleanups.push(() => api.close(), home.remove, project.remove);
    mkdirSync(join(project.dir, ".claude"));
    mkdirSync(join(project.dir, "victim"));
    const policy = join(project.dir, ".claude/toolware.policy.yaml");
    copyFileSync(join(root, "examples/claude/toolware.policy.yaml"), policy);
    const command = [process.execPath, "--import", loader, "--conditions", "@toolware/source", cliBin];
    const settings = {
      hooks: {
        PreToolUse: [
          {
            matcher: "*",
            hooks: [
              { type: "command", command: `${command.join(" ")} hook claude-code --policy ${policy}`, timeout: 120 },
            ],
          },
        ],
      },
    };
    writeFileSync(join(project.dir, ".claude/settings.json"), JSON.stringify(settings));
    // `--allowedTools` is the user's own rule: the hook gives no decision for a call the policy lets through, so
    // Claude Code's permission rules still decide it.
    const r = await claude(
      [
        "-p",
        "clean up and write a file",
        "--model",
        "claude-scripted",
        "--max-turns",
        "5",
        "--allowedTools",
        "Bash(touch made.txt)",
      ],
      project.dir,
      offlineEnv(api, home.dir),
    );
    expect(existsSync(join(project.dir, "victim")), r.out).toBe(true);
    const denied = toolResults(api.requests[1])[0];
    expect(denied?.id).toBe("toolu_rm");
    expect(denied?.isError).toBe(true);
    expect(denied?.text).toContain("rm -rf is not allowed here");
    // The policy lets it through, but the hook does not answer allow: with no permission rule for it, `claude -p`
    // (which cannot prompt) refuses it, as it would without the hook.
    expect(existsSync(join(project.dir, "other.txt")), r.out).toBe(false);
    const unasked = toolResults(api.requests[2])[0];
    expect(unasked?.id).toBe("toolu_unasked");
    expect(unasked?.isError).toBe(true);
    expect(existsSync(join(project.dir, "made.txt")), r.out).toBe(true);
    const audit = readFileSync(join(project.dir, ".claude/toolware-audit.jsonl"), "utf8");
    for (const id of ["toolu_rm", "toolu_unasked", "toolu_ok"]) expect(audit).toContain(id);
  });
});
