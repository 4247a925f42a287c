import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type AuditRecord, readAuditTrail, runToolwareCli, summarizeAudit } from "./index.js";

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

function cli(argv: string[]) {
  let out = "";
  let err = "";
  const code = runToolwareCli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  return { code, out, err };
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

describe("toolware audit <file>", () => {
  it("prints counts, block reasons, the slowest calls and a warning for a torn last line", () => {
    const lines = sample.map((r) => JSON.stringify(r));
    const file = write("cli.jsonl", `${lines.join("\n")}\n{"v":1,"callId":"g","tool":"web`);
    const { code, out, err } = cli(["audit", file, "--top", "1"]);
    expect([code, err]).toEqual([0, ""]);
    expect(out).toContain("calls: 6   ok: 2   blocked: 3   error: 1");
    expect(out).toMatch(/web_search\s+3 calls\s+ok 2\s+blocked 1\s+error 0/);
    expect(out).toMatch(/2×\s+destructive tools are disabled/);
    expect(out).toMatch(/slowest calls:\n\s+fetch_page\s+1500\.0 ms\s+error\s+e\s+2026-03-02T10:15:00\.000Z\n/);
    expect(out).toContain("the last line was cut short");
  });

  it("prints JSON with --json", () => {
    const file = write("cli-json.jsonl", `${JSON.stringify(sample[0])}\n`);
    const { code, out } = cli(["audit", file, "--json"]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ calls: 1, byStatus: { ok: 1, blocked: 0, error: 0 } });
  });

  it("exits 1 for a missing trail and 2 for a usage error", () => {
    expect(cli(["audit", join(dir, "nope.jsonl")])).toMatchObject({ code: 1, out: "" });
    expect(cli(["audit"]).code).toBe(2);
    expect(cli(["audit", "a", "b"]).code).toBe(2);
    expect(cli(["audit", "a", "--top", "x"]).code).toBe(2);
    expect(cli(["audit", "a", "--colour"]).code).toBe(2);
    expect(cli(["sumarise", "a"])).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown command "sumarise"'),
    });
    expect(cli(["--help"])).toMatchObject({ code: 0, out: expect.stringContaining("usage: toolware audit <file>") });
  });
});
