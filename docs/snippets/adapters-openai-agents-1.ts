// snippet: adapters-openai-agents-1.ts
import { Agent, RunState, run } from "@openai/agents";
import { ToolHooks } from "@toolware/core";
import { guardAgent, openAIAgentsApprovals, tool } from "@toolware/openai-agents"; // the SDK's tool(), errors kept
import { approval } from "@toolware/packs/approval";
import { z } from "zod";

const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() }); // "ask" becomes the SDK's interruption
hooks.use(approval({ tools: ["delete_file"] }));

const deleteFile = tool({
  name: "delete_file",
  description: "Deletes a file",
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `deleted ${path}`,
});
const agent = guardAgent(new Agent({ name: "ops", tools: [deleteFile] }), hooks);

const first = await run(agent, "delete notes.txt");
const saved = first.state.toString(); // store it; later, maybe in another process:
const state = await RunState.fromString(agent, saved);
for (const item of state.getInterruptions()) state.approve(item); // or state.reject(item, { message })
console.log((await run(agent, state)).finalOutput);
