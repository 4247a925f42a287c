// snippet: readme-packs-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: [{ tag: "destructive" }] }));
hooks.use(rateLimit({ max: 10, per: "1m" }));
hooks.use(redact());

const profile = defineTool({ name: "fetch_profile", execute: () => ({ email: "ada@example.com" }) });
console.log((await hooks.invoke(profile, {})).result); // {"email":"[EMAIL-REDACTED]"}
