// The real Claude Code (the binary the Agent SDK installs) runs offline against a scripted Messages API on loopback,
// and asks the real hooks before its real Bash, Write and Edit tools run.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { rateLimit } from "@toolware/packs/rate-limit";
import { afterEach, describe, expect, it } from "vitest";
import { claudeApprovals, type ToolwareHooksOptions, toolwareHooks } from "./index.js";
import {
  claudeBinary,
  offlineEnv,
  type ScriptedApi,
  scriptedApi,
  type Turn,
  tempDir,
  toolResults,
} from "./test-fixtures.js";

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
    hooks.before(
      (ctx) => (String(ctx.toolInput.command).includes("rm -rf") ? ctx.block("no rm -rf here") : undefined),
      {
        tools: ["Bash"],
      },
    );
    const r = await run(hooks, [
      { tool: "Bash", id: "toolu_block", input: { command: "touch victim && rm -rf victim" } },
    ]);
    expect(existsSync(join(r.dir, "victim"))).toBe(false);
    const [result] = toolResults(r.api.requests[1]);
    expect(result?.id).toBe("toolu_block");
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain("no rm -rf here");
    expect(r.outcomes.map((o) => [o.callId, o.status])).toEqual([["toolu_block", "blocked"]]);
  });

  it("a rewrite reaches the tool (updatedInput), and the after-hooks see and change what the model reads", async () => {
    const hooks = new ToolHooks();
    hooks.before(
      (ctx) => {
        ctx.toolInput.command = "echo rewritten-by-toolware sk-secret123";
      },
      { tools: ["Bash"] },
    );
    const seen: unknown[] = [];
    hooks.after((ctx) => {
      seen.push(ctx.toolResult);
      return String(ctx.toolResult).replaceAll(/sk-\w+/g, "[REDACTED]");
    });
    const r = await run(hooks, [{ tool: "Bash", id: "toolu_rw", input: { command: "echo original" } }]);
    expect(JSON.stringify(seen)).toContain("rewritten-by-toolware sk-secret123");
    const [result] = toolResults(r.api.requests[1]);
    expect(result?.id).toBe("toolu_rw");
    expect(result?.text).toContain("rewritten-by-toolware");
    expect(result?.text).toContain("[REDACTED]");
    expect(result?.text).not.toContain("sk-secret123");
    expect(r.outcomes.map((o) => [o.callId, o.status])).toEqual([["toolu_rw", "ok"]]);
  });

  it("a Write and an Edit go through the chain with their own call ids; an edit outside the project is tagged", async () => {
    const hooks = new ToolHooks();
    const calls: [string, string, readonly string[]][] = [];
    hooks.before(
      (ctx) => {
        calls.push([ctx.toolName, ctx.callId, ctx.tool.tags ?? []]);
        if (ctx.tool.tags?.includes("outside-project")) ctx.block("edits stay inside the project");
      },
      { tools: ["Write", "Edit"] },
    );
    const outside = tempDir("toolware-claude-outside-");
    cleanups.push(outside.remove);
    const project = tempDir("toolware-claude-p-");
    cleanups.push(project.remove);
    const file = join(project.dir, "notes.txt");
    const r = await run(
      hooks,
      [
        { tool: "Write", id: "toolu_w1", input: { file_path: file, content: "hello world\n" } },
        { tool: "Read", id: "toolu_r1", input: { file_path: file } },
        { tool: "Edit", id: "toolu_e1", input: { file_path: file, old_string: "world", new_string: "toolware" } },
        { tool: "Write", id: "toolu_w2", input: { file_path: join(outside.dir, "x.txt"), content: "no" } },
      ],
      { projectDir: project.dir },
    );
    expect(readFileSync(file, "utf8")).toBe("hello toolware\n");
    expect(existsSync(join(outside.dir, "x.txt"))).toBe(false);
    expect(calls.map(([name, id]) => [name, id])).toEqual([
      ["Write", "toolu_w1"],
      ["Edit", "toolu_e1"],
      ["Write", "toolu_w2"],
    ]);
    expect(calls[0]?.[2]).toEqual(["claude-code", "file-edit"]);
    expect(calls[2]?.[2]).toEqual(["claude-code", "file-edit", "outside-project"]);
    expect(toolResults(r.api.requests[4])[0]?.text).toContain("edits stay inside the project");
    expect(r.outcomes.map((o) => [o.callId, o.status])).toEqual([
      ["toolu_w1", "ok"],
      ["toolu_r1", "ok"],
      ["toolu_e1", "ok"],
      ["toolu_w2", "blocked"],
    ]);
  });

  it("a rate limit of 2 is exact over sequential calls: the third is denied", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: 60_000, tools: ["Bash"] }));
    const r = await run(hooks, [
      { tool: "Bash", id: "toolu_1", input: { command: "echo one >> log.txt" } },
      { tool: "Bash", id: "toolu_2", input: { command: "echo two >> log.txt" } },
      { tool: "Bash", id: "toolu_3", input: { command: "echo three >> log.txt" } },
    ]);
    expect(readFileSync(join(r.dir, "log.txt"), "utf8")).toBe("one\ntwo\n");
    expect(r.outcomes.map((o) => o.status)).toEqual(["ok", "ok", "blocked"]);
    expect(toolResults(r.api.requests[3])[0]?.isError).toBe(true);
  });

  it("an approval asked through Claude Code: canUseTool's answer is bound to the call, and a no denies", async () => {
    const hooks = new ToolHooks({ humanInput: claudeApprovals() });
    hooks.use(approval({ tools: ["Bash"] }));
    const asked: [string, string][] = [];
    const r = await run(
      hooks,
      [
        { tool: "Bash", id: "toolu_yes", input: { command: "echo approved > ok.txt" } },
        { tool: "Bash", id: "toolu_no", input: { command: "echo refused > no.txt" } },
      ],
      {
        canUseTool: async (toolName, input, { toolUseID }) => {
          asked.push([toolName, toolUseID]);
          return String(input.command).includes("approved")
            ? { behavior: "allow", updatedInput: input }
            : { behavior: "deny", message: "not this one" };
        },
      },
    );
    expect(asked).toEqual([
      ["Bash", "toolu_yes"],
      ["Bash", "toolu_no"],
    ]);
    expect(readFileSync(join(r.dir, "ok.txt"), "utf8")).toBe("approved\n");
    expect(existsSync(join(r.dir, "no.txt"))).toBe(false);
    expect(r.outcomes.map((o) => [o.callId, o.status])).toEqual([
      ["toolu_yes", "ok"],
      ["toolu_no", "blocked"],
    ]);
    expect(r.outcomes[1]?.reason).toContain("not this one");
  });

  it("a hook that throws fails closed: the command does not run", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => {
      throw new Error("the policy store is down");
    });
    const r = await run(hooks, [{ tool: "Bash", id: "toolu_t", input: { command: "touch ran.txt" } }]);
    expect(existsSync(join(r.dir, "ran.txt"))).toBe(false);
    expect(toolResults(r.api.requests[1])[0]?.isError).toBe(true);
    expect(r.outcomes.map((o) => o.status)).not.toContain("ok");
  });
});
