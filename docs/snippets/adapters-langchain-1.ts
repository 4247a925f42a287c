// snippet: adapters-langchain-1.ts
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ToolHooks } from "@toolware/core";
import { interruptHumanInput, toolwareMiddleware } from "@toolware/langchain";
import { approval } from "@toolware/packs/approval";
import { createAgent } from "langchain";
import { z } from "zod";

const sendEmail = tool(async ({ to }) => `sent to ${to}`, { name: "send_email", schema: z.object({ to: z.string() }) });
const hooks = new ToolHooks({ humanInput: interruptHumanInput() }); // a question pauses the run
hooks.use(approval({ tools: ["send_email"], timeoutMs: Number.POSITIVE_INFINITY }));

const agent = createAgent({
  model: "openai:gpt-5",
  tools: [sendEmail],
  checkpointer: new MemorySaver(), // interrupt() needs one
  middleware: [toolwareMiddleware(hooks)], // first = outermost
});
const config = { configurable: { thread_id: "t1" } };
const paused = await agent.invoke({ messages: [{ role: "user", content: "Mail the CEO" }] }, config);
console.log(paused.__interrupt__?.[0]?.value); // { kind: "toolware/human-input", prompt: "Approve send_email? …", … }
await agent.invoke(new Command({ resume: "yes" }), config); // the same call goes on: no hook counts it twice
