// snippet: adapters-mastra-1.ts
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import type { MastraModelConfig } from "@mastra/core/llm";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { ToolHooks } from "@toolware/core";
import { mastraToolware } from "@toolware/mastra";
import { approval } from "@toolware/packs/approval";
import { z } from "zod";

declare const model: MastraModelConfig;
const hooks = new ToolHooks();
const tw = mastraToolware(hooks);
hooks.use(approval({ tools: ["delete_file"], external: tw.approval })); // asked through Mastra's suspension

const deleteFile = createTool({
  id: "delete_file",
  description: "Deletes a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `deleted ${path}`,
});
const agent = tw.agent(
  new Agent({
    id: "ops",
    name: "ops",
    instructions: "Tidy up.",
    model,
    tools: { delete_file: deleteFile },
    hooks: tw.hooks, // the chain, as the agent-level beforeToolCall / afterToolCall
    outputProcessors: [tw.processor], // the model reads the after-hooks' result (redaction)
  }),
);
new Mastra({ agents: { ops: agent }, storage: new InMemoryStore() }); // suspended runs need storage

const first = await agent.generate("delete notes.txt");
if (first.finishReason === "suspended") {
  const { toolCallId } = first.suspendPayload as { toolCallId: string };
  const done = await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId }); // or declineToolCallGenerate
  console.log(done.text);
}
// Per-call hooks replace the agent's in Mastra: tw.with() keeps the chain (tw.agent() does it for hooks passed bare).
await agent.generate("list files", { hooks: tw.with({ afterToolCall: ({ toolName }) => console.log(toolName) }) });
