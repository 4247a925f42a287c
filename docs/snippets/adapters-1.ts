// snippet: adapters-1.ts
import { Agent, defineTool, type ToolCallHookContext, ToolHooks } from "@toolware/core";

// What a framework hands its tool for one call (here a made-up one, "toy").
interface ToyCallContext {
  readonly toolCallId: string;
  readonly user: string;
}

// Each adapter exports a reader like this one: it checks the name before trusting the shape.
const toyCall = (ctx: ToolCallHookContext): ToyCallContext | undefined =>
  ctx.framework?.name === "toy" ? (ctx.framework.context as ToyCallContext) : undefined;

const hooks = new ToolHooks();
hooks.before((ctx) => {
  if (toyCall(ctx)?.user === "guest") ctx.block("guests cannot send mail");
});
hooks.on("call:end", ({ ctx }) => console.log("ended", ctx.callId));

const sendMail = defineTool({ name: "send_mail", execute: (_input: { to: string }, { callId }) => `sent (${callId})` });
const context: ToyCallContext = { toolCallId: "call_7f3", user: "guest" };

// What an adapter does for each call: the framework's id and context go into the bindings.
const outcome = await hooks.invoke(
  sendMail,
  { to: "ops@example.com" },
  { agent: new Agent({ role: "assistant" }), callId: context.toolCallId, framework: { name: "toy", context } },
);
// ended call_7f3
console.log(outcome.callId, outcome.status, outcome.reason); // call_7f3 blocked guests cannot send mail
