import { isAbsolute, relative } from "node:path";
import type { AuditSummary } from "./reader.js";

// `right` lists the columns of numbers, aligned to the right; text columns align to the left.
function table(rows: readonly (readonly string[])[], right: readonly number[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (right.includes(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
}

// One line per value, whatever it holds: a reason with a newline must not look like two entries.
function oneLine(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

// "1 call", "2 calls": a count with its noun, singular for one.
function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

// Paths below the working directory are shown relative to it, others in full.
function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? file : rel;
}

/**
 * The summary as the `toolware audit` command prints it.
 *
 * @example
 * ```ts
 * console.log(formatAuditSummary(summarizeAudit(readAuditTrail("logs/audit.jsonl"))));
 * ```
 */
export function formatAuditSummary(summary: AuditSummary, cwd: string = process.cwd()): string {
  const out: string[] = [];
  const files = summary.files.map((f) => shown(f.file, cwd));
  const last = files.at(-1) ?? "";
  out.push(`audit trail: ${files.length <= 3 ? files.join(", ") : `${files[0]} … ${last} (${files.length} files)`}`);
  const { ok, blocked, error } = summary.byStatus;
  out.push(`calls: ${summary.calls}   ok: ${ok}   blocked: ${blocked}   error: ${error}`);
  const tools = Object.entries(summary.byTool);
  if (tools.length > 0) {
    out.push("", "by tool:");
    const rows = tools.map(([tool, c]) => [
      oneLine(tool),
      count(c.calls, "call"),
      `ok ${c.ok}`,
      `blocked ${c.blocked}`,
      `error ${c.error}`,
    ]);
    out.push(...table(rows, [1, 2, 3, 4]).map((line) => `  ${line}`));
  }
  if (summary.blockedReasons.length > 0) {
    out.push("", "blocked reasons:");
    out.push(...summary.blockedReasons.map((r) => `  ${String(r.count).padStart(5)}×  ${oneLine(r.reason)}`));
  }
  if (summary.slowest.length > 0) {
    out.push("", "slowest calls:");
    const rows = summary.slowest.map((r) => [
      oneLine(r.tool),
      `${r.durationMs.toFixed(1)} ms`,
      r.status,
      oneLine(r.callId),
      // A record needs no time to count (the reader checks callId, tool, status and durationMs only).
      typeof r.time === "string" ? oneLine(r.time) : "",
    ]);
    out.push(...table(rows, [1]).map((line) => `  ${line}`));
  }
  const warnings: string[] = [];
  for (const f of summary.files) {
    const name = shown(f.file, cwd);
    const damaged = f.tornTail ? f.invalidLines.slice(0, -1) : f.invalidLines;
    if (f.tornTail) warnings.push(`${name}: the last line was cut short (a crash while it was written); skipped`);
    if (damaged.length > 0) {
      const shown = damaged.slice(0, 10).join(", ");
      const lines = damaged.length === 1 ? "1 line is not a record" : `${damaged.length} lines are not records`;
      const which = `${damaged.length === 1 ? "line" : "lines"} ${shown}${damaged.length > 10 ? ", …" : ""}`;
      warnings.push(`${name}: ${lines} (${which}); skipped`);
    }
  }
  if (summary.redactionFailures > 0) {
    const holds = summary.redactionFailures === 1 ? "1 record holds" : `${summary.redactionFailures} records hold`;
    warnings.push(`${holds} [redaction failed] placeholders: check the redact function`);
  }
  if (warnings.length > 0) out.push("", "warnings:", ...warnings.map((w) => `  ${w}`));
  return `${out.join("\n")}\n`;
}
