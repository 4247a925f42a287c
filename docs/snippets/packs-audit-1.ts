// snippet: packs-audit-1.ts
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, ToolHooks } from "@toolware/core";
import { audit, auditFiles, readAuditTrail } from "@toolware/packs/audit";
import { createRedactor } from "@toolware/packs/redact";

const file = join(mkdtempSync(join(tmpdir(), "agent-")), "logs", "audit.jsonl"); // "logs" is created
const { value: redact } = createRedactor({ keys: ["customer_id"] }); // the default detectors, and one key more
const trail = audit({ file, durability: "fsync", maxBytes: 1024, redact });
const hooks = new ToolHooks();
hooks.use(trail);

const lookup = defineTool({
  name: "lookup_customer",
  execute: ({ customer_id }: { customer_id: string }) => ({ customer_id, plan: "pro", owner: "ana@example.com" }),
});
for (let i = 0; i < 10; i++) await hooks.invoke(lookup, { customer_id: `C-${1000 + i}` });

// Ten lines of about 300 bytes, rotated at 1 KiB: every line kept, oldest file first.
console.log(auditFiles(file).map((f) => f.slice(f.lastIndexOf("/") + 1)));
// ["audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.3", "audit.jsonl"]
const { records } = readAuditTrail(file);
console.log(records.length, records[0]?.input, records[0]?.result);
// 10 { customer_id: '[REDACTED]' } {"customer_id":"[REDACTED]","plan":"pro","owner":"[EMAIL-REDACTED]"}
trail.close(); // at shutdown; a later call would open the file again
