// snippet: adapters-langchain-offline.ts
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { ToolHooks } from "@toolware/core";
import { toolwareMiddleware } from "@toolware/langchain";
import { guardrails } from "@toolware/packs/guardrails";
import { createAgent } from "langchain";
import { z } from "zod";

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: ["drop_table"] }));
const dropTable = tool(async ({ table }) => `dropped ${table}`, {
  name: "drop_table",
  schema: z.object({ table: z.string() }),
});

// LangChain's own offline model (@langchain/core/testing): one tool call, then an answer. No network, no key.
const model = fakeModel()
  .respondWithTools([{ name: "drop_table", args: { table: "invoices" }, id: "call_1" }])
  .respond(new AIMessage("I may not do that."));

const agent = createAgent({ model, tools: [dropTable], middleware: [toolwareMiddleware(hooks)] });
const { messages } = await agent.invoke({ messages: [{ role: "user", content: "Drop the invoices table" }] });
const reply = messages.find((m) => m.type === "tool");
console.log(reply?.content); // Tool execution blocked by hook. Tool: drop_table. Reason: drop_table is on the deny list …
console.log(messages.at(-1)?.content); // I may not do that.
