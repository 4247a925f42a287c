// snippet: packs-1.ts
import { Agent, defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { cache } from "@toolware/packs/cache";
import { guardrails } from "@toolware/packs/guardrails";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { safePath } from "@toolware/packs/validate";

// The demo's stack (examples/demo/src/stack.ts). Priorities decide the onion; higher is further out.
const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes", "no"]) }); // the demo asks a terminal
const stats = analytics(); // 1000: sees every call, however it ended
const packs = [
  stats,
  loopGuard({ maxRepeats: 3, sameInput: true }), // 100: notices loops before they spend quota
  guardrails({ byRole: { junior_agent: { deny: [{ tag: "destructive" }, "send_email"] } } }), // 0: the guards,
  safePath({ tools: ["read_file", "delete_file"], root: "/workspace" }), //    in registration order
  approval({ tools: ["send_email"], timeoutMs: 120_000 }),
  rateLimit({ max: 3, per: "1m", tools: "web_search" }),
  redact(), // -50 by default: outside the cache, so answers from the cache are redacted too
  cache({ tools: ["get_weather"], ttl: "10m" }), // -100: only calls every guard let through reach it
];
for (const pack of packs) hooks.use(pack);

const junior = new Agent({ role: "junior_agent" });
const lead = new Agent({ role: "team_lead" });
const tool = (name: string, text: string, destructive = false) =>
  defineTool({ name, destructive, execute: () => text });
const weather = tool("get_weather", "sunny; questions to bob@example.com");
const deleteFile = tool("delete_file", "deleted", true);
const sendEmail = tool("send_email", "sent");

console.log((await hooks.invoke(weather, { city: "Paris" }, { agent: lead })).result); // sunny; questions to [EMAIL-REDACTED]
console.log((await hooks.invoke(weather, { city: "Paris" }, { agent: lead })).result); // the same, from the cache
console.log((await hooks.invoke(deleteFile, { path: "a.txt" }, { agent: junior })).reason);
// delete_file is on the deny list of role junior_agent (tag destructive)
console.log((await hooks.invoke(sendEmail, {}, { agent: lead })).status); // ok: the human said yes
console.log((await hooks.invoke(sendEmail, {}, { agent: lead })).reason); // a human did not approve send_email (answer: "no")
console.log(stats.stats().totals.count); // 5
// The chain of one call, outermost first ("?": a predicate decides per call whether the hook applies).
console.log(hooks.explain({ toolName: "get_weather", agent: lead }).map((h) => h.name + (h.conditional ? "?" : "")));
// ["analytics:record", "analytics:start", "loop-guard", "guardrails", "safe-path?", "approval?",
//  "redact:redactResult", "cache"]
