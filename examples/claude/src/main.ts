// The Claude Agent SDK guarded by the ready coding-agent policy, offline: the real Claude Code (the binary the SDK
// installs) talks to a scripted Messages API on loopback, and asks toolware before each of its tools runs.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { toolwareHooks } from "@toolware/claude";
import { loadPolicy } from "@toolware/policy";
import { startModel } from "./model.js";

const project = mkdtempSync(join(tmpdir(), "toolware-example-claude-"));
const home = mkdtempSync(join(tmpdir(), "toolware-example-claude-home-"));
mkdirSync(join(project, "build"));
const policyFile = join(project, "toolware.policy.yaml");
copyFileSync(fileURLToPath(new URL("../toolware.policy.yaml", import.meta.url)), policyFile);

const model = await startModel([
  { tool: "Bash", id: "toolu_rm", input: { command: "rm -rf build", description: "clean the build" } },
  { tool: "Write", id: "toolu_etc", input: { file_path: "/etc/toolware-example", content: "no" } },
  { tool: "Write", id: "toolu_notes", input: { file_path: join(project, "notes.md"), content: "# notes\n" } },
]);

const policy = await loadPolicy(policyFile);
const guard = toolwareHooks(policy, {
  projectDir: project,
  onOutcome: (o) => console.log(`app sees     ${o.callId.padEnd(12)} ${o.toolName.padEnd(6)} ${o.status}`),
});

try {
  for await (const message of query({
    prompt: "tidy up the project",
    options: {
      ...guard,
      cwd: project,
      model: "scripted",
      settingSources: [],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: "offline",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    },
  })) {
    if (message.type === "result" && message.subtype === "success") console.log(`final output: ${message.result}`);
  }
  for (const line of model.seen) console.log(`model reads  ${line}`);
  const audit = readFileSync(join(project, "toolware-audit.jsonl"), "utf8").trim().split("\n");
  console.log(`audit lines  ${audit.length}`);
} finally {
  model.close();
  rmSync(project, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}
