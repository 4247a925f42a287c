// snippet: packs-approval-1.ts
import { defineTool, scriptedHumanInput, ToolHooks, terminalHumanInput } from "@toolware/core";
import { approval } from "@toolware/packs/approval";

const sendEmail = defineTool({ name: "send_email", execute: (input: { to: string }) => `sent to ${input.to}` });

// In production: ask on the terminal (or your own provider: Slack, a web inbox, …).
const live = new ToolHooks({ humanInput: terminalHumanInput() });
live.use(approval({ tools: ["send_email", "make_purchase", "delete_file", "post_message"] }));

// In tests and demos: a scripted human.
const human = scriptedHumanInput(["yes", 'edit {"to":"team@example.com"}', "no thanks"]);
const hooks = new ToolHooks({ humanInput: human });
const gate = approval({ tools: "send_email", remember: "tool", timeoutMs: 120_000 });
hooks.use(gate);

await hooks.invoke(sendEmail, { to: "boss@example.com" }); // approved: "sent to boss@example.com"
await hooks.invoke(sendEmail, { to: "all@example.com" }); // approved with the edit: "sent to team@example.com"
const denied = await hooks.invoke(sendEmail, { to: "x@example.com" });
console.log(denied.reason); // 'a human did not approve send_email (answer: "no thanks")'
console.log(human.requests[0]?.prompt); // 'Approve send_email?\nInput: {"to":"boss@example.com"}'
gate.reset(); // forget remembered decisions ("always" / "never")
