// snippet: troubleshooting-1.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks({ timing: true });
const support = new Agent({ role: "support_agent" });
const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });

hooks.before((ctx) => !ctx.toolName.startsWith("send_") || ctx.agent?.role !== "intern", { name: "noInternMail" });
hooks.use(async (ctx, next) => {
  if (Object.keys(ctx.toolInput).length === 0) return ctx.block(); // no reason given: hard to find
  await next();
});
support.after((ctx) => ctx.toolResult?.trim());

// 1. Which hooks would run, outermost first? (Predicates run per call: conditional = true.)
for (const h of hooks.explain({ toolName: "send_email", agent: support })) {
  console.log(`${h.layer.padEnd(6)} ${h.kind.padEnd(10)} ${h.name.padEnd(14)} p${h.priority} ${h.conditional}`);
}
// agent  after      after#0        p0 false   ← an unnamed hook is called <kind>#<its index in its layer>
// global before     noInternMail   p0 false
// global middleware middleware#1   p0 false

// 2. Which one blocked this call, and why?
const outcome = await hooks.invoke(sendEmail, {}, { agent: support });
const culprit = outcome.trace.find((t) => t.action === "blocked" || t.action === "failed");
console.log(culprit?.hook, culprit?.layer, culprit?.kind, culprit?.reason ?? "(no reason)", culprit?.durationMs);
// middleware#1 global middleware (no reason) 0.27

// 3. In production, watch every block and every failing hook.
hooks.on("call:blocked", ({ ctx, reason, outcome }) => {
  const by = outcome.trace.find((t) => t.action === "blocked" || t.action === "failed");
  console.warn(`${ctx.toolName} blocked by ${by?.layer}/${by?.hook}: ${reason ?? "no reason"}`);
});
hooks.on("hook:error", ({ hook, phase, policy, error }) => console.error(`${hook.name} (${phase}, ${policy})`, error));
