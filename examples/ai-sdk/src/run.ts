import { aiSdkApproval, guardTools } from "@toolware/ai-sdk";
import { ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { generateText, type LanguageModel, type ModelMessage, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const calls = (...parts: [string, string, object][]) => ({
  content: parts.map(([toolCallId, toolName, input]) => ({
    type: "tool-call" as const,
    toolCallId,
    toolName,
    input: JSON.stringify(input),
  })),
  finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
  usage,
  warnings: [],
});
const text = (value: string) => ({
  content: [{ type: "text" as const, text: value }],
  finishReason: { unified: "stop" as const, raw: "stop" },
  usage,
  warnings: [],
});

/** The scripted model: it looks a customer up, tries to delete the account, then mails the customer. */
export function scriptedModel(): LanguageModel {
  return new MockLanguageModelV3({
    doGenerate: [
      calls(["call-1", "lookup_customer", { email: "ann@example.com" }], ["call-2", "delete_account", { id: "c-7" }]),
      calls(["call-3", "send_email", { to: "ann@example.com", body: "Your plan is renewed." }]),
      text("Ann's plan is renewed and she has been told; deleting accounts is not allowed for me."),
    ],
  });
}

/** The tools, written for the AI SDK as usual. */
export const tools = {
  lookup_customer: tool({
    description: "Find a customer by email",
    inputSchema: z.object({ email: z.string() }),
    execute: async ({ email }) => ({ id: "c-7", email, plan: "pro", apiKey: "sk-live-4f9a2b" }),
  }),
  delete_account: tool({
    description: "Delete a customer account",
    inputSchema: z.object({ id: z.string() }),
    execute: async ({ id }) => `deleted ${id}`,
  }),
  send_email: tool({
    description: "Send an email",
    inputSchema: z.object({ to: z.string(), body: z.string() }),
    execute: async ({ to }) => `sent to ${to}`,
  }),
};

/** Runs the support agent twice: until the SDK asks for approval, then resumed with the user's yes. */
export async function runExample(print: (line: string) => void, model: () => LanguageModel = scriptedModel) {
  const hooks = new ToolHooks();
  hooks.use(guardrails({ deny: ["delete_account"] }));
  hooks.use(approval({ tools: "send_email", external: aiSdkApproval }));
  hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-[\w-]+/g, "[REDACTED]"));
  const guarded = guardTools(hooks, tools, {
    nativeApproval: true,
    onOutcome: (o) => print(`  ${o.status.padEnd(7)} ${o.toolName} (${o.callId})${o.reason ? `: ${o.reason}` : ""}`),
  });
  const llm = model();
  const prompt: ModelMessage[] = [{ role: "user", content: "Renew Ann's plan and tell her." }];
  print("run 1");
  const first = await generateText({ model: llm, tools: guarded, messages: prompt, stopWhen: stepCountIs(5) });
  const requests = first.content.filter((p) => p.type === "tool-approval-request");
  for (const r of requests)
    print(`  the SDK asks the user to approve ${r.toolCall.toolName} (${r.toolCall.toolCallId})`);
  const answers: ModelMessage = {
    role: "tool",
    content: requests.map((r) => ({
      type: "tool-approval-response" as const,
      approvalId: r.approvalId,
      approved: true,
    })),
  };
  print("run 2 (the user clicked approve)");
  const second = await generateText({
    model: llm,
    tools: guarded,
    messages: [...prompt, ...first.response.messages, answers],
    stopWhen: stepCountIs(5),
  });
  print(`model: ${second.text}`);
  return { first, second };
}
