// A LangChain.js agent (createAgent, LangChain's offline fake model) whose every tool call runs through toolware:
// a guardrail blocks, redaction cleans a result, and an approval pauses the run until a person answers.
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ToolHooks } from "@toolware/core";
import { interruptHumanInput, type ToolwareInterrupt, toolwareMiddleware } from "@toolware/langchain";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { createAgent } from "langchain";
import { z } from "zod";

const readConfig = tool(
  async ({ service }) => `${service}: url=https://db.internal api_key=sk-proj-abc123def456ghi789jkl`,
  {
    name: "read_config",
    description: "Reads a service's configuration",
    schema: z.object({ service: z.string() }),
  },
);
const dropTable = tool(async ({ table }) => `dropped ${table}`, {
  name: "drop_table",
  schema: z.object({ table: z.string() }),
});
const sendEmail = tool(async ({ to }) => `queued for ${to.split("@")[1]}`, {
  name: "send_email",
  schema: z.object({ to: z.string() }),
});

const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
hooks.use(guardrails({ deny: [{ destructive: true }] }));
hooks.use(redact());
hooks.use(approval({ tools: ["send_email"], timeoutMs: Number.POSITIVE_INFINITY }));

const model = fakeModel()
  .respondWithTools([
    { name: "read_config", args: { service: "billing" }, id: "call_1" },
    { name: "drop_table", args: { table: "invoices" }, id: "call_2" },
    { name: "send_email", args: { to: "ceo@example.com" }, id: "call_3" },
  ])
  .respond(new AIMessage("All done."));

const agent = createAgent({
  model,
  tools: [readConfig, dropTable, sendEmail],
  checkpointer: new MemorySaver(),
  middleware: [
    toolwareMiddleware(hooks, {
      tools: { drop_table: { destructive: true } },
      onOutcome: (outcome) => console.log(`  outcome   ${outcome.callId}  ${outcome.toolName}  ${outcome.status}`),
    }),
  ],
});

const config = { configurable: { thread_id: "example" } };
console.log("run 1: the model asks for three tools");
const paused = await agent.invoke({ messages: [{ role: "user", content: "Tidy up billing." }] }, config);
for (const pending of paused.__interrupt__ ?? []) {
  const question = pending.value as ToolwareInterrupt;
  console.log(`  paused    ${question.callId}  ${question.toolName}  asks: ${question.prompt.split("\n")[0]}`);
}

console.log('run 2: a person answers "yes"');
const done = await agent.invoke(new Command({ resume: "yes" }), config);
for (const message of done.messages) {
  if (ToolMessage.isInstance(message)) {
    const mark = message.status === "error" ? "✖ error  " : "✔ success";
    console.log(`  ${mark} ${message.tool_call_id}  ${message.name}  ${String(message.content)}`);
  }
}
console.log(`  model     ${String(done.messages.at(-1)?.content)}`);
