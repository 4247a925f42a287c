import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { ToolCallOutcome } from "@toolware/core";
import { otelTracing } from "@toolware/otel";
import { type AuditDurability, audit, auditFiles } from "@toolware/packs/audit";
import { EXPECTED } from "../fixtures.js";
import {
  emit,
  expectString,
  measureInterleaved,
  median,
  type RoundOptions,
  roundOptions,
  type Subject,
  type Timing,
} from "../harness.js";
import { direct } from "../references.js";
import { toolwareStack } from "../toolware-stack.js";

// What observability costs per call: the 10-hook stack of the toolware suite, with and without the otel
// middleware (no-op tracer, in-memory exporter) and the audit pack (plain writes, fsync), in one process per case.

const dir = mkdtempSync(join(tmpdir(), "toolware-bench-audit-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const check = (value: unknown): void => expectString(EXPECTED)((value as ToolCallOutcome).result);

const stack10: Subject = {
  id: "toolware-10",
  label: "toolware, 10 hooks (4 before, 3 after, 3 middleware)",
  hooks: 10,
  run: toolwareStack({ hooks: 10 }).call,
  check,
};

function withOtel(id: string, label: string, tracing: "noop" | "memory"): Subject {
  const stack = toolwareStack({ hooks: 10 });
  if (tracing === "noop") {
    // No provider is registered in this process: the API's default tracer, whose spans record nothing.
    stack.hooks.use(otelTracing());
    return { id, label, hooks: 11, run: stack.call, check };
  }
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  stack.hooks.use(otelTracing({ tracer: provider.getTracer("bench") }));
  let calls = 0;
  const run = (): Promise<ToolCallOutcome<string>> => {
    // The exporter keeps every span: emptied now and then, so memory stays flat.
    if (++calls % 4096 === 0) exporter.reset();
    return stack.call();
  };
  return { id, label, hooks: 11, run, check };
}

function withAudit(id: string, label: string, durability: AuditDurability, redact?: (v: unknown) => unknown): Subject {
  const stack = toolwareStack({ hooks: 10 });
  const file = join(dir, `${id}.jsonl`);
  stack.hooks.use(audit({ file, durability, maxBytes: 8 * 1024 * 1024, ...(redact === undefined ? {} : { redact }) }));
  let calls = 0;
  const run = (): Promise<ToolCallOutcome<string>> => {
    // Rotated files are kept by design; the benchmark deletes them so that a long run does not fill the disk.
    if (++calls % 8192 === 0) for (const f of auditFiles(file).slice(0, -1)) unlinkSync(f);
    return stack.call();
  };
  return { id, label, hooks: 12, run, check };
}

const cases: Record<string, () => Subject[]> = {
  otel: () => [
    direct,
    stack10,
    withOtel("otel-noop", "toolware, 10 hooks + otel middleware, no-op tracer (no SDK registered)", "noop"),
    withOtel("otel-memory", "toolware, 10 hooks + otel middleware, SDK with InMemorySpanExporter", "memory"),
  ],
  audit: () => [
    direct,
    stack10,
    withAudit("audit-write", 'toolware, 10 hooks + audit, durability "write", default redaction', "write"),
    withAudit("audit-write-raw", 'toolware, 10 hooks + audit, durability "write", redact: (v) => v', "write", (v) => v),
  ],
  "audit-fsync": () => [
    direct,
    stack10,
    withAudit("audit-fsync", 'toolware, 10 hooks + audit, durability "fsync" (the default)', "fsync"),
  ],
};

// Each fsync waits about a millisecond for the disk: fewer, shorter rounds keep that case to a minute or so.
const DEFAULTS: Record<string, RoundOptions> = {
  otel: { rounds: 30, roundMs: 30 },
  audit: { rounds: 30, roundMs: 30 },
  "audit-fsync": { rounds: 8, roundMs: 10 },
};

const BASELINE = "toolware-10";

// Paired per round like the report's overhead column, but against the same stack without the pack.
function costOver(timings: readonly Timing[], t: Timing): number {
  const base = timings.find((b) => b.id === BASELINE);
  if (base === undefined) return Number.NaN;
  const n = Math.min(t.rounds.length, base.rounds.length);
  return median(Array.from({ length: n }, (_, i) => (t.rounds[i] as number) - (base.rounds[i] as number)));
}

const name = process.argv[2] ?? "";
const make = cases[name];
if (make === undefined) {
  throw new TypeError(
    `observe: unknown case ${JSON.stringify(name)} (expected one of: ${Object.keys(cases).join(", ")})`,
  );
}
const subjects = make();
const timings = await measureInterleaved(subjects, roundOptions(DEFAULTS[name] ?? { rounds: 30, roundMs: 30 }));
const costs = timings
  .filter((t) => t.id !== "direct" && t.id !== BASELINE)
  .map((t) => `${t.id}: ${(costOver(timings, t) / 1000).toFixed(2)} µs per call over the same 10-hook stack.`);
emit({
  suite: "observe",
  case: name,
  reference: "direct",
  timings,
  notes: [
    ...costs,
    "Same stack as toolware:10 (4 before, 3 after, 3 middleware over the global, crew and agent layers); the otel middleware sits at priority 1200, the audit pack's hooks at 1100.",
    "No context manager is registered, as in an app without the OTel Node SDK: the otel middleware's context.with runs the rest of the chain directly.",
    "The audit file is a real file under the OS temp directory. The CPU clock does not count the time an fsync waits for the disk: run with --wall to see it.",
  ],
});
