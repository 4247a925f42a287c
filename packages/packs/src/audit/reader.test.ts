import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type AuditRecord, formatAuditSummary, readAuditTrail, summarizeAudit } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-audit-reader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function record(callId: string, tool: string, status: AuditRecord["status"], durationMs: number, reason?: string) {
  return {
    v: 1,
    time: "2026-03-02T10:15:00.000Z",
    callId,
    tool,
    agent: null,
    task: null,
    input: {},
    status,
    toolRan: status !== "blocked",
    reason: reason ?? null,
    error: status === "error" ? "boom" : null,
    result: "",
    durationMs,
    hooks: [],
  };
}

const sample = [
  record("a", "web_search", "ok", 12),
  record("b", "web_search", "blocked", 0, "destructive tools are disabled"),
  record("c", "delete_file", "blocked", 0, "destructive tools are disabled"),
  record("d", "delete_file", "blocked", 0, "needs approval"),
  record("e", "fetch_page", "error", 1500),
  record("f", "web_search", "ok", 30.25),
];

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("reading an audit trail", () => {
  it("counts by tool and status, ranks block reasons and the slowest calls", () => {
    const file = write("sample.jsonl", `${sample.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const summary = summarizeAudit(readAuditTrail(file), { top: 2 });
    expect(summary.calls).toBe(6);
    expect(summary.byStatus).toEqual({ ok: 2, blocked: 3, error: 1 });
    expect(summary.byTool).toEqual({
      web_search: { calls: 3, ok: 2, blocked: 1, error: 0 },
      delete_file: { calls: 2, ok: 0, blocked: 2, error: 0 },
      fetch_page: { calls: 1, ok: 0, blocked: 0, error: 1 },
    });
    expect(summary.blockedReasons).toEqual([
      { reason: "destructive tools are disabled", count: 2 },
      { reason: "needs approval", count: 1 },
    ]);
    expect(summary.slowest.map((s) => [s.callId, s.durationMs])).toEqual([
      ["e", 1500],
      ["f", 30.25],
    ]);
    expect(summary.invalidLines).toBe(0);
  });

  it("tolerates a torn last line, and reports damaged lines elsewhere without giving up", () => {
    const lines = sample.map((r) => JSON.stringify(r));
    const torn = write("torn.jsonl", `${lines.join("\n")}\n${lines[0]?.slice(0, 40)}`);
    const trail = readAuditTrail(torn);
    expect(trail.records).toHaveLength(6);
    expect(trail.files[0]).toMatchObject({ tornTail: true, invalidLines: [7] });
    const damaged = write("damaged.jsonl", `${lines[0]}\nnot json\n{"callId":1}\n${lines[1]}\n`);
    expect(readAuditTrail(damaged).files[0]).toMatchObject({ records: 2, invalidLines: [2, 3], tornTail: false });
  });

  it("never throws for what a file holds", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.constant(JSON.stringify(sample[0])))), (parts) => {
        const file = write("fuzz.jsonl", parts.join("\n"));
        const summary = summarizeAudit(readAuditTrail(file));
        expect(summary.calls + summary.invalidLines).toBeLessThanOrEqual(Math.max(parts.length, 1));
      }),
      { numRuns: 200 },
    );
  });

  it("throws TOOLWARE_AUDIT_UNREADABLE when there is no trail", () => {
    let thrown: unknown;
    try {
      readAuditTrail(join(dir, "missing.jsonl"));
    } catch (error) {
      thrown = error;
    }
    expect(toolwareCode(thrown)).toBe("TOOLWARE_AUDIT_UNREADABLE");
  });
});

describe("formatAuditSummary", () => {
  const format = (file: string, top?: number) => formatAuditSummary(summarizeAudit(readAuditTrail(file), { top }), dir);

  it("prints counts, block reasons, the slowest calls and a warning for a torn last line", () => {
    const lines = sample.map((r) => JSON.stringify(r));
    const out = format(write("cli.jsonl", `${lines.join("\n")}\n{"v":1,"callId":"g","tool":"web`), 1);
    expect(out).toMatch(/^audit trail: cli\.jsonl\n/);
    expect(out).toContain("calls: 6   ok: 2   blocked: 3   error: 1");
    expect(out).toMatch(/web_search\s+3 calls\s+ok 2\s+blocked 1\s+error 0/);
    expect(out).toMatch(/2×\s+destructive tools are disabled/);
    expect(out).toMatch(/slowest calls:\n\s+fetch_page\s+1500\.0 ms\s+error\s+e\s+2026-03-02T10:15:00\.000Z\n/);
    expect(out).toContain("the last line was cut short");
  });

  it("prints a record that has no time, or a call id with a newline, on one line each", () => {
    const bare = { callId: "x\ny", tool: "t", status: "ok", durationMs: 2 };
    const out = format(write("bare.jsonl", `${JSON.stringify(bare)}\n${JSON.stringify({ ...bare, time: 7 })}\n`));
    expect(out).toMatch(/slowest calls:\n {2}t {2}2\.0 ms {2}ok {2}x\\ny\n {2}t {2}2\.0 ms {2}ok {2}x\\ny\n$/);
  });

  it("speaks of one call, one damaged line and one failed redaction in the singular", () => {
    const one = { ...sample[4], redactionFailed: true };
    const out = format(write("one.jsonl", `${JSON.stringify(one)}\nnot json\n${JSON.stringify(sample[0])}\n`));
    expect(out).toMatch(/fetch_page\s+1 call\s+ok 0/);
    expect(out).toMatch(/web_search\s+1 call\s+ok 1/);
    expect(out).not.toMatch(/\b1 calls\b/);
    expect(out).toContain("one.jsonl: 1 line is not a record (line 2); skipped");
    expect(out).toContain("1 record holds [redaction failed] placeholders");
    const many = format(write("many.jsonl", `${JSON.stringify(one)}\n${JSON.stringify(one)}\nx\ny\n`));
    expect(many).toMatch(/fetch_page\s+2 calls/);
    expect(many).toContain("many.jsonl: 2 lines are not records (lines 3, 4); skipped");
    expect(many).toContain("2 records hold [redaction failed] placeholders");
  });
});
