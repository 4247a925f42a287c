// snippet: adapters-adk-offline.ts
import {
  BaseLlm,
  type BaseLlmConnection,
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
} from "@google/adk";
import { toolwarePlugin } from "@toolware/adk";
import { ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { z } from "zod";

// ADK ships no test model: a subclass of its own BaseLlm (the documented extension point) plays a tool call, then text.
class ScriptedLlm extends BaseLlm {
  readonly requests: LlmRequest[] = [];
  #turn = 0;
  constructor() {
    super({ model: "scripted" });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(request);
    const first = this.#turn++ === 0;
    const call = { functionCall: { id: "call_1", name: "delete_file", args: { path: "notes.txt" } } };
    yield { content: { role: "model", parts: [first ? call : { text: "I may not do that." }] } };
  }
  async connect(): Promise<BaseLlmConnection> {
    throw new Error("offline");
  }
}

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: ["delete_file"] }));
const deleteFile = new FunctionTool({
  name: "delete_file",
  description: "Deletes a file",
  parameters: z.object({ path: z.string() }),
  execute: async ({ path }) => ({ deleted: path }),
});
const model = new ScriptedLlm();
const runner = new InMemoryRunner({
  agent: new LlmAgent({ name: "ops", model, tools: [deleteFile] }),
  appName: "ops",
  plugins: [toolwarePlugin(hooks)],
});
const { id } = await runner.sessionService.createSession({ appName: "ops", userId: "dana" });
const newMessage = { role: "user", parts: [{ text: "delete notes.txt" }] };
for await (const event of runner.runAsync({ userId: "dana", sessionId: id, newMessage })) {
  console.log(event.content?.parts); // the call, then { error: "Tool execution blocked by hook. …" }, then the text
}
const sent = model.requests[1]?.contents.at(-1)?.parts?.[0]?.functionResponse?.response;
console.log(sent); // { error: "Tool execution blocked by hook. Tool: delete_file. Reason: delete_file is on the deny list …" }
