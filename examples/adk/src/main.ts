import { FunctionTool, InMemoryRunner, LlmAgent, LogLevel, setLogLevel } from "@google/adk";
import { adkApprovals, toolwarePlugin } from "@toolware/adk";
import { ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { z } from "zod";
import { responses, ScriptedLlm } from "./model.js";

setLogLevel(LogLevel.ERROR);

const hooks = new ToolHooks({ humanInput: adkApprovals() });
hooks.use(guardrails({ deny: ["drop_database"] }));
hooks.use(approval({ tools: ["delete_file"] }));
hooks.use(redact());

const files = new Map([["notes.txt", "deploy on friday / api_key=sk-proj-abc123def456ghi789jkl"]]);
const path = z.object({ path: z.string() });
const tools = [
  new FunctionTool({
    name: "read_file",
    description: "Reads a file",
    parameters: path,
    execute: async ({ path }) => ({ text: files.get(path) ?? "no such file" }),
  }),
  new FunctionTool({
    name: "delete_file",
    description: "Deletes a file",
    parameters: path,
    execute: async ({ path }) => ({ deleted: files.delete(path) ? path : "nothing" }),
  }),
  new FunctionTool({
    name: "drop_database",
    description: "Drops the database",
    parameters: z.object({}),
    execute: async () => ({ dropped: true }),
  }),
];

const fn = (id: string, name: string, args: Record<string, unknown>) => ({ functionCall: { id, name, args } });
const model = new ScriptedLlm([
  [fn("call_read", "read_file", { path: "notes.txt" }), fn("call_drop", "drop_database", {})],
  [fn("call_delete", "delete_file", { path: "notes.txt" })],
]);
const plugin = toolwarePlugin(hooks, {
  onOutcome: (o) => console.log(`app sees     ${o.callId.padEnd(12)} ${o.toolName.padEnd(14)} ${o.status}`),
});
const runner = new InMemoryRunner({
  agent: new LlmAgent({ name: "ops", model, tools }),
  appName: "ops",
  plugins: [plugin],
});
const { id } = await runner.sessionService.createSession({ appName: "ops", userId: "dana" });

const run = async (newMessage: Parameters<typeof runner.runAsync>[0]["newMessage"]) => {
  let gate: string | undefined;
  for await (const event of runner.runAsync({ userId: "dana", sessionId: id, newMessage })) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall?.name === "adk_request_confirmation") gate = part.functionCall.id;
      if (part.text) console.log(`final output: ${part.text}`);
    }
  }
  return gate;
};

const gate = await run({ role: "user", parts: [{ text: "Read my notes, then clean up." }] });
console.log(`paused, waiting for confirmation: ${gate}`);
// The user says yes to the confirmation ADK asked for; ADK resumes the call and toolware's approval answers it.
await run({
  role: "user",
  parts: [{ functionResponse: { id: gate, name: "adk_request_confirmation", response: { confirmed: true } } }],
});

// The last request holds the whole conversation: every function response the model read.
for (const [callId, response] of responses(model.seen.at(-1))) {
  console.log(`model reads  ${callId.padEnd(12)} ${JSON.stringify(response)}`);
}
