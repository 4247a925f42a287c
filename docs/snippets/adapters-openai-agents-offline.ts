// snippet: adapters-openai-agents-offline.ts
import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { ToolHooks } from "@toolware/core";
import { guardAgent, tool } from "@toolware/openai-agents";
import { guardrails } from "@toolware/packs/guardrails";
import { z } from "zod";

setTracingDisabled(true); // offline: no traces sent to OpenAI
const hooks = new ToolHooks();
hooks.use(guardrails({ deny: ["delete_file"] }));
const deleteFile = tool({
  name: "delete_file",
  description: "Deletes a file",
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `deleted ${path}`,
});

// The SDK's own offline model (@openai/agents/testing): one tool call, then an answer. No network, no key.
const model = new ScriptedModel([
  [functionCall("delete_file", { path: "notes.txt" }, { callId: "call_1" })],
  [assistantMessage("I may not do that.")],
]);
const agent = guardAgent(new Agent({ name: "ops", model, tools: [deleteFile] }), hooks);
const result = await run(agent, "delete notes.txt");
const output = result.newItems.find((item) => item.type === "tool_call_output_item")?.output;
console.log(output); // Tool execution blocked by hook. Tool: delete_file. Reason: delete_file is on the deny list …
console.log(result.finalOutput); // I may not do that.
