// snippet: adapters-claude-1.ts
import { query } from "@anthropic-ai/claude-agent-sdk";
import { claudeApprovals, toolwareHooks } from "@toolware/claude";
import { ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { redact } from "@toolware/packs/redact";

const hooks = new ToolHooks({ humanInput: claudeApprovals() }); // approvals go through Claude Code's permission flow
hooks.before((ctx) => (String(ctx.toolInput.command).includes("rm -rf") ? ctx.block("no rm -rf") : undefined), {
  tools: ["Bash"],
});
hooks.use(approval({ tools: ["WebFetch", "mcp__*"] }));
hooks.use(redact()); // what the model reads of a result, after the tool ran

const guard = toolwareHooks(hooks, {
  projectDir: process.cwd(), // edits outside it carry the tag `outside-project`
  canUseTool: async (toolName, input) => {
    // your prompt: a terminal, a web page, the inbox … (this one approves reads of example.com only)
    const ok = toolName === "WebFetch" && String(input.url).startsWith("https://example.com/");
    return ok ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: "not approved" };
  },
  onOutcome: (outcome) => console.log(outcome.callId, outcome.toolName, outcome.status),
});

for await (const message of query({ prompt: "clean up the build folder", options: { ...guard } })) {
  if (message.type === "result") console.log(message.subtype);
}
