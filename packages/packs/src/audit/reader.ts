import { existsSync, readFileSync } from "node:fs";
import { type CallStatus, ToolwareError } from "@toolware/core";
import type { AuditRecord } from "./record.js";
import { rotatedNumbers } from "./writer.js";

/** What was read from one file of a trail. */
export interface AuditFileReport {
  readonly file: string;
  /** Records read from it. */
  readonly records: number;
  /** 1-based numbers of lines that are not records: lines cut short by a crash, or damage. */
  readonly invalidLines: readonly number[];
  /** The file ends in a line cut short (a crash while it was written): expected after a kill, at most once. */
  readonly tornTail: boolean;
}

/** The records of a trail, oldest first, and what each file held. */
export interface AuditTrail {
  readonly records: readonly AuditRecord[];
  readonly files: readonly AuditFileReport[];
}

/** Counts of one tool's calls. */
export interface AuditToolCounts {
  readonly calls: number;
  readonly ok: number;
  readonly blocked: number;
  readonly error: number;
}

/** What {@link summarizeAudit} finds in a trail. */
export interface AuditSummary {
  readonly calls: number;
  readonly byStatus: Readonly<Record<CallStatus, number>>;
  readonly byTool: Readonly<Record<string, AuditToolCounts>>;
  /** Block reasons, most frequent first. */
  readonly blockedReasons: readonly { readonly reason: string; readonly count: number }[];
  /** The slowest calls, slowest first. */
  readonly slowest: readonly Pick<AuditRecord, "callId" | "tool" | "status" | "durationMs" | "time">[];
  readonly files: readonly AuditFileReport[];
  /** Lines that were not records, over all files (a torn last line included). */
  readonly invalidLines: number;
  readonly redactionFailures: number;
}

const STATUSES = new Set<unknown>(["ok", "blocked", "error"]);
const NO_REASON = "(no reason given)";

function isRecord(value: unknown): value is AuditRecord {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.callId === "string" &&
    typeof r.tool === "string" &&
    STATUSES.has(r.status) &&
    typeof r.durationMs === "number"
  );
}

function parse(line: string): AuditRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The files of a trail, oldest first: the rotated `<file>.1`, `<file>.2`, …, then `file` itself (when present).
 *
 * @example
 * ```ts
 * auditFiles("logs/audit.jsonl"); // ["/…/logs/audit.jsonl.1", "/…/logs/audit.jsonl"]
 * ```
 */
export function auditFiles(file: string): string[] {
  const files = rotatedNumbers(file).map((n) => `${file}.${n}`);
  if (existsSync(file)) files.push(file);
  return files;
}

function readFile(file: string, into: AuditRecord[]): AuditFileReport {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ToolwareError("TOOLWARE_AUDIT_UNREADABLE", `audit: cannot read ${file}: ${String(error)}`, {
      cause: error,
    });
  }
  const lines = text.split("\n");
  // A complete file ends with a newline, leaving one empty piece; anything else there was being written.
  const tail = lines.pop() ?? "";
  const invalidLines: number[] = [];
  let records = 0;
  lines.forEach((line, i) => {
    const record = parse(line);
    if (record === undefined) invalidLines.push(i + 1);
    else {
      into.push(record);
      records++;
    }
  });
  let tornTail = false;
  if (tail !== "") {
    // Cut after its last byte but before its newline, a line is whole and counts.
    const record = parse(tail);
    if (record === undefined) {
      tornTail = true;
      invalidLines.push(lines.length + 1);
    } else {
      into.push(record);
      records++;
    }
  }
  return { file, records, invalidLines, tornTail };
}

/**
 * Reads a trail: `file` and, unless `rotated: false`, the files it rotated to. Never throws for what a file holds
 * (a torn last line, a damaged line): such lines are reported per file. Throws `TOOLWARE_AUDIT_UNREADABLE` when
 * there is nothing to read.
 *
 * @example
 * ```ts
 * const trail = readAuditTrail("logs/audit.jsonl");
 * trail.records.filter((r) => r.status === "blocked").map((r) => r.reason);
 * ```
 */
export function readAuditTrail(file: string, options: { rotated?: boolean } = {}): AuditTrail {
  const files = options.rotated === false ? [file] : auditFiles(file);
  if (files.length === 0) {
    throw new ToolwareError("TOOLWARE_AUDIT_UNREADABLE", `audit: no audit trail at ${file}`);
  }
  const records: AuditRecord[] = [];
  return { records, files: files.map((f) => readFile(f, records)) };
}

/**
 * Counts a trail's calls by tool and status, its block reasons, and its slowest calls (`top` of them, default 5).
 *
 * @example
 * ```ts
 * const { calls, byStatus, blockedReasons } = summarizeAudit(readAuditTrail("logs/audit.jsonl"));
 * ```
 */
export function summarizeAudit(trail: AuditTrail, options: { top?: number } = {}): AuditSummary {
  const top = options.top ?? 5;
  const byStatus: Record<CallStatus, number> = { ok: 0, blocked: 0, error: 0 };
  const byTool = new Map<string, { calls: number; ok: number; blocked: number; error: number }>();
  const reasons = new Map<string, number>();
  let redactionFailures = 0;
  for (const r of trail.records) {
    byStatus[r.status]++;
    let counts = byTool.get(r.tool);
    if (counts === undefined) {
      counts = { calls: 0, ok: 0, blocked: 0, error: 0 };
      byTool.set(r.tool, counts);
    }
    counts.calls++;
    counts[r.status]++;
    if (r.status === "blocked") {
      const reason = typeof r.reason === "string" ? r.reason : NO_REASON;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    if (r.redactionFailed === true) redactionFailures++;
  }
  const slowest = [...trail.records]
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, Math.max(0, top))
    .map(({ callId, tool, status, durationMs, time }) => ({ callId, tool, status, durationMs, time }));
  return {
    calls: trail.records.length,
    byStatus,
    // fromEntries defines own properties: a tool named "__proto__" stays a plain key.
    byTool: Object.fromEntries([...byTool].sort((a, b) => b[1].calls - a[1].calls)),
    blockedReasons: [...reasons].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
    slowest,
    files: trail.files,
    invalidLines: trail.files.reduce((n, f) => n + f.invalidLines.length, 0),
    redactionFailures,
  };
}
