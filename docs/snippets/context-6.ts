// snippet: context-6.ts
import { defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";

// In production leave `humanInput` out (the terminal) or pass your own provider; a script answers in tests.
const human = scriptedHumanInput(["yes", "no"]);
const hooks = new ToolHooks({ humanInput: human });
const sendEmail = defineTool({ name: "send_email", execute: ({ to }: { to: string }) => `sent to ${to}` });

// The seed's approval gate. Awaiting the answer is the only difference from CrewAI.
const approvalRequired = new Set(["send_email", "make_purchase", "delete_file", "post_message"]);
hooks.before(
  async function requireApproval(ctx) {
    const answer = await ctx.requestHumanInput(
      `Approve ${ctx.toolName}?`,
      `Input: ${JSON.stringify(ctx.toolInput)}\nType 'yes' to approve:`,
      { timeoutMs: 5 * 60_000 }, // this question only: no answer in 5 minutes rejects (and blocks the call)
    );
    if (answer.toLowerCase() !== "yes") ctx.block(`${ctx.toolName} was not approved`);
  },
  { tools: (ctx) => approvalRequired.has(ctx.toolName) },
);

console.log((await hooks.invoke(sendEmail, { to: "ada@example.com" })).result); // sent to ada@example.com
console.log((await hooks.invoke(sendEmail, { to: "all@example.com" })).result);
// Tool execution blocked by hook. Tool: send_email. Reason: send_email was not approved
console.log((await hooks.invoke(sendEmail, { to: "bob@example.com" })).reason);
// hook requireApproval failed: toolware: the scripted human has no answer left for "Approve send_email?"
console.log(
  human.requests.map((r) => r.prompt),
  human.remaining,
); // ["Approve send_email?", …] 0
