// snippet: crewai-26.ts
import { Agent, beforeToolCallCrew, Crew, defineTool, type ToolCallHookContext, ToolHooks } from "@toolware/core";

class LockedDownCrew extends Crew {
  @beforeToolCallCrew
  noEmail(ctx: ToolCallHookContext) {
    if (ctx.toolName === "send_email") ctx.block("this crew does not send e-mail");
  }
}

const hooks = new ToolHooks();
const assistant = new Agent({ role: "assistant" });
const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });

const locked = new LockedDownCrew({ agents: [assistant] });
const open = new Crew({ agents: [assistant] });
console.log((await hooks.invoke(sendEmail, {}, { agent: assistant, crew: locked })).status); // blocked
console.log((await hooks.invoke(sendEmail, {}, { agent: assistant, crew: open })).status); // ok (in CrewAI: blocked too)
console.log(hooks.list().length); // 0: nothing leaked into the global layer

locked.dispose(); // or `using locked = new LockedDownCrew(…)`: gone at the end of the block
console.log((await hooks.invoke(sendEmail, {}, { agent: assistant, crew: locked })).status); // ok
