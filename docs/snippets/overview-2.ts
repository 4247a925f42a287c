// snippet: overview-2.ts
import { defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { safePath } from "@toolware/packs/validate";

const readFile = defineTool({
  name: "read_file",
  execute: ({ path }: { path: string }) => `${path}: mail bob@example.com`,
});
const sendEmail = defineTool({ name: "send_email", execute: ({ to }: { to: string }) => `sent to ${to}` });
const dropTable = defineTool({ name: "drop_table", destructive: true, execute: () => "dropped" });

// The same ideas, ready-made: each pack is a set of hooks that one use() registers.
const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["no"]) }); // a script answers instead of a terminal
hooks.use(guardrails({ deny: [{ tag: "destructive" }] })); // tools defined with destructive: true never run
hooks.use(safePath({ tools: ["read_file"], root: "/workspace" })); // paths stay inside /workspace
hooks.use(approval({ tools: ["send_email"] })); // a human must answer "yes"
hooks.use(redact()); // e-mail addresses, API keys and card numbers never reach the agent

console.log((await hooks.invoke(readFile, { path: "notes.md" })).result); // notes.md: mail [EMAIL-REDACTED]
console.log((await hooks.invoke(readFile, { path: "../../etc/passwd" })).reason);
// invalid path in "path": parent-directory traversal (..)
console.log((await hooks.invoke(dropTable, {})).reason); // drop_table is on the deny list (tag destructive)
console.log((await hooks.invoke(sendEmail, { to: "all@example.com" })).reason);
// a human did not approve send_email (answer: "no")
