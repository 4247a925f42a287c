// snippet: packs-redact-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { redact, redactText, redactValue } from "@toolware/packs/redact";

const getUser = defineTool({
  name: "get_user",
  execute: () => ({ email: "jane@example.com", apiKey: "sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e", plan: "pro" }),
});

const hooks = new ToolHooks();
hooks.use(redact({ keys: ["x_session"], patterns: [/INTERNAL-\d{6}/] }));

const out = await hooks.invoke(getUser, {});
console.log(out.result); // '{"email":"[EMAIL-REDACTED]","apiKey":"[REDACTED]","plan":"pro"}'
console.log(out.raw); // the tool's own object, unchanged

// The same functions, outside a chain (logs, traces, error reports):
console.log(redactText("Authorization: Bearer abcdefghijklmnop1234, card 4111-1111-1111-1111"));
// "Authorization: Bearer [REDACTED], card [CARD-REDACTED]"
console.log(redactValue({ password: 1234, contacts: ["bob@example.com"] }));
// { password: "[REDACTED]", contacts: ["[EMAIL-REDACTED]"] }
