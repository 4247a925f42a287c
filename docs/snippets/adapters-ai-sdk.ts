// snippet: adapters-ai-sdk.ts
import { aiSdkApproval, guardTools } from "@toolware/ai-sdk";
import { Agent, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { generateText, type LanguageModel, stepCountIs, tool } from "ai";
import { z } from "zod";

declare const model: LanguageModel;
const hooks = new ToolHooks();
hooks.use(guardrails({ deny: ["delete_account"] }));
hooks.use(approval({ tools: "send_email", external: aiSdkApproval })); // asks through the SDK's approval flow
hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-\w+/g, "[REDACTED]"));

const support = new Agent({ role: "support" });
const tools = guardTools(
  hooks,
  { send_email: tool({ inputSchema: z.object({ to: z.string() }), execute: async ({ to }) => `sent to ${to}` }) },
  { bind: () => ({ agent: support }), onOutcome: (o) => console.log(o.callId, o.status), nativeApproval: true },
);
const result = await generateText({ model, tools, prompt: "Mail Ann", stopWhen: stepCountIs(5) });
// ai 7: also pass `toolApproval: toolApproval(tools)`, so a block is the SDK's automatic denial.
console.log(result.text);
