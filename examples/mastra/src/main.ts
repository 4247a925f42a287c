import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { ToolHooks } from "@toolware/core";
import { mastraToolware } from "@toolware/mastra";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { z } from "zod";
import { resultsRead, scriptedModel } from "./model.js";

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.log(`examples/mastra: skipped, Mastra needs Node 22.13 or later (this is Node ${process.versions.node})`);
  process.exit(0);
}

const hooks = new ToolHooks();
const tw = mastraToolware(hooks, {
  onOutcome: (o) => console.log(`app sees     ${o.callId} ${o.toolName} ${o.status}`),
});
hooks.use(guardrails({ deny: ["drop_database"] }));
hooks.use(approval({ tools: ["delete_file"], external: tw.approval })); // asks through Mastra's approveToolCall
hooks.use(redact());

const files = new Map([["notes.txt", "deploy on friday / api_key=sk-proj-abc123def456ghi789jkl"]]);
const path = z.object({ path: z.string() });
const tools = {
  read_file: createTool({
    id: "read_file",
    description: "Reads a file",
    inputSchema: path,
    execute: async ({ path }) => files.get(path) ?? "no such file",
  }),
  delete_file: createTool({
    id: "delete_file",
    description: "Deletes a file",
    inputSchema: path,
    execute: async ({ path }) => (files.delete(path) ? `deleted ${path}` : "no such file"),
  }),
  drop_database: createTool({
    id: "drop_database",
    description: "Drops the database",
    inputSchema: z.object({}),
    execute: async () => "dropped",
  }),
};

const model = scriptedModel([
  [
    ["call_read", "read_file", { path: "notes.txt" }],
    ["call_drop", "drop_database", {}],
  ],
  [["call_delete", "delete_file", { path: "notes.txt" }]],
  "All done.",
]);
const agent = tw.agent(
  new Agent({
    id: "ops",
    name: "ops",
    instructions: "Tidy up.",
    model,
    tools,
    hooks: tw.hooks, // the chain: Mastra's agent-level beforeToolCall / afterToolCall
    outputProcessors: [tw.processor], // the model reads what the after-hooks made of a result
  }),
);
new Mastra({ agents: { ops: agent }, storage: new InMemoryStore(), logger: false }); // approvals need storage

const first = await agent.generate("tidy up", { maxSteps: 4 });
const pending = first.suspendPayload as { toolCallId: string; toolName: string; args: unknown };
console.log(
  `suspended, waiting for approval: ${pending.toolCallId} ${pending.toolName} ${JSON.stringify(pending.args)}`,
);
const done = await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId: pending.toolCallId });
for (const [id, value] of resultsRead(model)) console.log(`model reads   ${id} ${JSON.stringify(value)}`);
console.log(`final output: ${done.text}`);
