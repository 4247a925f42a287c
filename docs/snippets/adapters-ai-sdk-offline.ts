// snippet: adapters-ai-sdk-offline.ts
import { guardTools } from "@toolware/ai-sdk";
import { ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: ["delete_account"] }));
const tools = guardTools(hooks, {
  delete_account: tool({ inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => `deleted ${id}` }),
});

// The SDK's own offline model (ai/test): it asks for one tool call, then answers. No network, no key.
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [{ type: "tool-call", toolCallId: "call_1", toolName: "delete_account", input: '{"id":"c-7"}' }],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage,
      warnings: [],
    },
    {
      content: [{ type: "text", text: "I may not do that." }],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    },
  ],
});

const result = await generateText({ model, tools, prompt: "Close account c-7", stopWhen: stepCountIs(3) });
// What the model read back for its call: a denial with the reason, and the tool never ran.
const sent = model.doGenerateCalls[1]?.prompt.at(-1);
const answer = sent?.role === "tool" ? sent.content[0] : undefined;
console.log(answer?.type === "tool-result" ? answer.output : answer);
// { type: "execution-denied", reason: "Tool execution blocked by hook. Tool: delete_account. Reason: …" }
console.log(result.text); // I may not do that.
