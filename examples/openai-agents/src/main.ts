import { Agent, RunState, run, setTracingDisabled, tool } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { ToolHooks } from "@toolware/core";
import { guardAgent, openAIAgentsApprovals } from "@toolware/openai-agents";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { z } from "zod";
import { toolOutputs } from "./model.js";

setTracingDisabled(true);

const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
hooks.use(guardrails({ deny: ["drop_database"] }));
hooks.use(approval({ tools: ["delete_file"] }));
hooks.use(redact());

const files = new Map([["notes.txt", "deploy on friday / api_key=sk-proj-abc123def456ghi789jkl"]]);
const tools = [
  tool({
    name: "read_file",
    description: "Reads a file",
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => files.get(path) ?? "no such file",
  }),
  tool({
    name: "delete_file",
    description: "Deletes a file",
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => (files.delete(path) ? `deleted ${path}` : "no such file"),
  }),
  tool({ name: "drop_database", description: "Drops it", parameters: z.object({}), execute: () => "dropped" }),
];
// A fresh agent per process: the approval below resumes in another instance, from serialised state.
const makeAgent = (model: ScriptedModel) =>
  guardAgent(new Agent({ name: "ops", model, tools }), hooks, {
    onOutcome: (o) => console.log(`  app sees  ${o.callId}  ${o.toolName}  ${o.status}`),
  });

// The SDK's own offline model (`@openai/agents/testing`) plays the script: no network, no key.
const model = new ScriptedModel([
  [
    functionCall("read_file", { path: "notes.txt" }, { callId: "call_read" }),
    functionCall("drop_database", {}, { callId: "call_drop" }),
    functionCall("delete_file", { path: "notes.txt" }, { callId: "call_delete" }),
  ],
]);
console.log("toolware × OpenAI Agents JS (offline, scripted model)\n\nFirst run:");
const first = await run(makeAgent(model), "tidy up");
const pending = first.interruptions.map((i) => (i.rawItem.type === "function_call" ? i.rawItem.callId : "?"));
console.log(`  interrupted, waiting for approval: ${pending.join(", ")}`);
const saved = first.state.toString();
console.log(`  run state serialised (${saved.length} characters)`);

const next = new ScriptedModel([[assistantMessage("All done.")]]);
const agent = makeAgent(next);
const state = await RunState.fromString(agent, saved);
for (const item of state.getInterruptions()) state.approve(item);
console.log("\nResumed in a fresh agent after a human approved:");
const resumed = await run(agent, state);
for (const [id, text] of Object.entries(toolOutputs(next.calls[0]?.request)))
  console.log(`  model reads  ${id}  ${text}`);
console.log(`  final output: ${String(resumed.finalOutput)}`);
