// snippet: coding-agents-1.ts
import { query } from "@anthropic-ai/claude-agent-sdk";
import { toolwareHooks } from "@toolware/claude";
import { loadPolicy } from "@toolware/policy";

// The same file the command hook reads, in an app built on the Claude Agent SDK.
const policy = await loadPolicy(".claude/toolware.policy.yaml");
const guard = toolwareHooks(policy, { projectDir: process.cwd() });

for await (const message of query({ prompt: "tidy up the project", options: { ...guard, cwd: process.cwd() } })) {
  if (message.type === "result") console.log(message.subtype);
}
