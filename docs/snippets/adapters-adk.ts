// snippet: adapters-adk.ts
import { FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";
import { type AdkCall, adkApprovals, toolwarePlugin } from "@toolware/adk";
import { Agent, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { z } from "zod";

const hooks = new ToolHooks({ humanInput: adkApprovals() }); // "ask" becomes ADK's tool confirmation
hooks.use(approval({ tools: ["delete_file"] }));

const deleteFile = new FunctionTool({
  name: "delete_file",
  description: "Deletes a file",
  parameters: z.object({ path: z.string() }),
  execute: async ({ path }) => ({ deleted: path }),
});
const intern = new Agent({ role: "intern" });
const plugin = toolwarePlugin(hooks, {
  bind: (call: AdkCall) => ({ agent: call.toolContext.state.get("role") === "intern" ? intern : undefined }),
  tools: { delete_file: { destructive: true } },
});
// First in `plugins`: every agent's and sub-agent's tool calls of this Runner go through the chain.
const runner = new InMemoryRunner({
  agent: new LlmAgent({ name: "ops", model: "gemini-2.5-flash", tools: [deleteFile] }),
  appName: "ops",
  plugins: [plugin],
});

const session = await runner.sessionService.createSession({ appName: "ops", userId: "dana" });
const message = { role: "user", parts: [{ text: "delete notes.txt" }] };
let gate: string | undefined; // the id of ADK's adk_request_confirmation call
for await (const event of runner.runAsync({ userId: "dana", sessionId: session.id, newMessage: message })) {
  for (const part of event.content?.parts ?? []) {
    if (part.functionCall?.name === "adk_request_confirmation") gate = part.functionCall.id;
  }
}
// Later, the user's answer: ADK runs the call again, and the approval pack's question gets "yes".
const yes = { functionResponse: { id: gate, name: "adk_request_confirmation", response: { confirmed: true } } };
for await (const event of runner.runAsync({
  userId: "dana",
  sessionId: session.id,
  newMessage: { role: "user", parts: [yes] },
})) {
  console.log(event.content?.parts);
}
