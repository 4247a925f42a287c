// snippet: observability-3.ts
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { audit, formatAuditSummary, readAuditTrail, summarizeAudit } from "@toolware/packs/audit";

const file = join(mkdtempSync(join(tmpdir(), "agent-")), "audit.jsonl");
const hooks = new ToolHooks();
hooks.use(audit({ file })); // durability "fsync", rotation at 64 MiB, the redact pack's detectors
hooks.before(function guard(ctx) {
  if (ctx.tool.destructive) ctx.block("destructive tools are disabled");
});

const sendEmail = defineTool({ name: "send_email", execute: ({ to }: { to: string }) => `sent to ${to}` });
const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });
const agent = new Agent({ role: "assistant" });
await hooks.invoke(sendEmail, { to: "bob@example.com" }, { agent });
await hooks.invoke(deleteFile, { path: "notes.md" }, { agent });

// Both lines were on disk before each `invoke` resolved.
console.log(readFileSync(file, "utf8"));
// {"v":1,"time":"2026-03-02T10:15:00.000Z","callId":"k3x9q1-00","tool":"send_email","agent":"assistant",
//  "task":null,"input":{"to":"[EMAIL-REDACTED]"},"status":"ok","toolRan":true,"reason":null,"error":null,
//  "result":"sent to [EMAIL-REDACTED]","durationMs":1.42,"hooks":[]}
// {"v":1,"time":"2026-03-02T10:15:00.002Z","callId":"k3x9q1-01","tool":"delete_file","agent":"assistant",
//  "task":null,"input":{"path":"notes.md"},"status":"blocked","toolRan":false,
//  "reason":"destructive tools are disabled","error":null,"result":"Tool execution blocked by hook. …",
//  "durationMs":0.01,"hooks":[{"hook":"guard","layer":"global","phase":"before","action":"blocked",
//  "reason":"destructive tools are disabled"}]}

// What `npx toolware audit <file>` prints:
console.log(formatAuditSummary(summarizeAudit(readAuditTrail(file))));
// audit trail: /tmp/agent-Xy12ab/audit.jsonl
// calls: 2   ok: 1   blocked: 1   error: 0
//
// by tool:
//   send_email   1 call  ok 1  blocked 0  error 0
//   delete_file  1 call  ok 0  blocked 1  error 0
//
// blocked reasons:
//       1×  destructive tools are disabled
//
// slowest calls:
//   send_email   1.4 ms  ok       k3x9q1-00  2026-03-02T10:15:00.000Z
//   delete_file  0.0 ms  blocked  k3x9q1-01  2026-03-02T10:15:00.002Z
