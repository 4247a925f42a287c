// snippet: adapters-mastra-offline.ts
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { ToolHooks } from "@toolware/core";
import { mastraToolware } from "@toolware/mastra";
import { guardrails } from "@toolware/packs/guardrails";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: ["delete_file"] }));
const tw = mastraToolware(hooks);
const deleteFile = createTool({
  id: "delete_file",
  description: "Deletes a file",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `deleted ${path}`,
});

// ai 6's own offline model (Mastra takes AI SDK models; generate() calls doGenerate): a tool call, then an answer.
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [{ type: "tool-call", toolCallId: "call_1", toolName: "delete_file", input: '{"path":"notes.txt"}' }],
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
      usage,
      warnings: [],
    },
    {
      content: [{ type: "text", text: "I may not do that." }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    },
  ],
});
const agent = tw.agent(
  new Agent({
    id: "ops",
    name: "ops",
    instructions: "Tidy up.",
    model,
    tools: { delete_file: deleteFile },
    hooks: tw.hooks,
    outputProcessors: [tw.processor],
  }),
);
const result = await agent.generate("delete notes.txt");
console.log(result.toolResults[0]?.payload.result); // Tool execution blocked by hook. Tool: delete_file. Reason: …
console.log(result.text); // I may not do that.
