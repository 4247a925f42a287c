import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { child, inProcess, scratch } from "../test-fixtures.js";

const { dir, write } = scratch("toolware-cli-audit-");
const audit = (...argv: string[]) => inProcess(["audit", ...argv], dir);
const version = (
  JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

function record(callId: string, tool: string, status: "ok" | "blocked" | "error", durationMs: number, reason?: string) {
  return JSON.stringify({
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
  });
}

const sample = [
  record("a", "web_search", "ok", 12),
  record("b", "web_search", "blocked", 0, "destructive tools are disabled"),
  record("c", "delete_file", "blocked", 0, "destructive tools are disabled"),
  record("d", "delete_file", "blocked", 0, "needs approval"),
  record("e", "fetch_page", "error", 1500),
  record("f", "web_search", "ok", 30.25),
];

describe("toolware audit <file>", () => {
  it("prints counts, block reasons, the slowest calls and a warning for a torn last line", async () => {
    write("trail.jsonl", `${sample.join("\n")}\n{"v":1,"callId":"g","tool":"web`);
    const { code, out, err } = await audit("trail.jsonl", "--top", "1");
    expect([code, err]).toEqual([0, ""]);
    expect(out).toMatch(/^audit trail: trail\.jsonl\ncalls: 6 {3}ok: 2 {3}blocked: 3 {3}error: 1\n/);
    expect(out).toMatch(/web_search\s+3 calls\s+ok 2\s+blocked 1\s+error 0/);
    expect(out).toMatch(/2×\s+destructive tools are disabled/);
    expect(out).toMatch(/slowest calls:\n\s+fetch_page\s+1500\.0 ms\s+error\s+e\s+2026-03-02T10:15:00\.000Z\n\n/);
    expect(out).toContain("the last line was cut short");
  });

  it("speaks of one call as one call", async () => {
    write("one.jsonl", `${sample[0]}\n`);
    const { code, out } = await audit("one.jsonl");
    expect(code).toBe(0);
    expect(out).toMatch(/web_search\s+1 call\s+ok 1\s+blocked 0\s+error 0\n/);
    expect(out).not.toMatch(/\b1 calls\b/);
  });

  it("summarises a minimal record (no time, no agent): what the reader accepts, the command prints", async () => {
    write("bare.jsonl", `${JSON.stringify({ callId: "a", tool: "t", status: "ok", durationMs: 1 })}\n`);
    const { code, out, err } = await audit("bare.jsonl");
    expect([code, err]).toEqual([0, ""]);
    expect(out).toMatch(
      /\n {2}t {2}1 call {2}ok 1 {2}blocked 0 {2}error 0\n[\s\S]*slowest calls:\n {2}t {2}1\.0 ms {2}ok {2}a\n$/,
    );
  });

  it("prints the summary as JSON with --json", async () => {
    write("json.jsonl", `${sample[0]}\n`);
    const { code, out } = await audit("json.jsonl", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ calls: 1, byStatus: { ok: 1, blocked: 0, error: 0 } });
  });

  it("reads the rotated files too, unless --no-rotated", async () => {
    write("rot.jsonl.1", `${sample[0]}\n${sample[1]}\n`);
    write("rot.jsonl", `${sample[2]}\n`);
    expect((await audit("rot.jsonl")).out).toMatch(/^audit trail: rot\.jsonl\.1, rot\.jsonl\ncalls: 3 /);
    expect((await audit("rot.jsonl", "--no-rotated")).out).toMatch(/^audit trail: rot\.jsonl\ncalls: 1 /);
  });

  it("exits 1 when the trail holds no valid record: an empty file, a file of other lines, a torn line alone", async () => {
    write("empty.jsonl", "");
    expect(await audit("empty.jsonl")).toEqual({
      code: EXIT.failure,
      out: "",
      err: "toolware: audit: empty.jsonl is empty: it holds no audit record\n",
    });
    write("other.log", "GET / 200\nGET /a 404\n");
    expect(await audit("other.log", "--json")).toEqual({
      code: EXIT.failure,
      out: "",
      err: "toolware: audit: other.log holds no audit record (none of its 2 lines is a record written by @toolware/packs/audit)\n",
    });
    write("torn.jsonl", '{"v":1,"callId":"g","tool":"web');
    expect(await audit("torn.jsonl")).toMatchObject({
      code: EXIT.failure,
      err: expect.stringMatching(/its only line is not a record/),
    });
    write(
      "wrong-shape.jsonl",
      `${JSON.stringify({ callId: "a", tool: "t", status: "maybe", durationMs: 1 })}\n[]\nnull\n`,
    );
    expect((await audit("wrong-shape.jsonl")).code).toBe(EXIT.failure);
  });

  it("summarises the rest but still exits 1 when one file of the trail holds no record", async () => {
    write("mixed.jsonl.1", "not a record\n");
    write("mixed.jsonl", `${sample[0]}\n`);
    const { code, out, err } = await audit("mixed.jsonl");
    expect(code).toBe(EXIT.failure);
    expect(out).toMatch(/^audit trail: mixed\.jsonl\.1, mixed\.jsonl\ncalls: 1 /);
    expect(err).toBe(
      "toolware: audit: mixed.jsonl.1 holds no audit record (its only line is not a record written by @toolware/packs/audit)\n",
    );
  });

  it("exits 1 for a missing trail, naming it", async () => {
    expect(await audit("nope.jsonl")).toEqual({
      code: EXIT.failure,
      out: "",
      err: `toolware: audit: no audit trail at ${join(dir, "nope.jsonl")}\n`,
    });
  });

  it("refuses a count that is not a whole number, and other usage errors, with exit 2", async () => {
    write("u.jsonl", `${sample[0]}\n`);
    for (const top of ["1e3", "1.5", "-1", "x", "", "0x10", "99999999999999999"]) {
      expect(await audit("u.jsonl", "--top", top)).toEqual({
        code: EXIT.usage,
        out: "",
        err: `toolware audit: --top takes a whole number of 0 or more, got ${JSON.stringify(top)}\nRun "toolware audit --help" for usage.\n`,
      });
    }
    expect((await audit("u.jsonl", "--top=1e3")).code).toBe(EXIT.usage);
    expect((await audit("u.jsonl", "--top", "0")).out).not.toContain("slowest calls:");
    expect((await audit()).err).toMatch(/^toolware audit: expected 1 argument \(file\), got 0\n/);
    expect((await audit("a", "b")).code).toBe(EXIT.usage);
    expect((await audit("u.jsonl", "--jsn")).err).toMatch(
      /^toolware audit: unknown option "--jsn" \(did you mean --json\?\)\n/,
    );
    expect((await audit("u.jsonl", "--top")).err).toMatch(/--top needs a value \(--top N\)/);
  });

  it("has --help and --version", async () => {
    const help = await audit("--help");
    expect(help).toMatchObject({ code: 0, err: "" });
    expect(help.out).toMatch(/^usage: toolware audit <file> \[options\]\n/);
    expect(help.out).toMatch(/--top N\s+how many of the slowest calls to list/);
    expect(help.out).toMatch(/\n {2}1 {2}the trail cannot be read, or a file of it holds no audit record\n/);
    expect(await audit("--version")).toEqual({ code: 0, out: `${version}\n`, err: "" });
  });
});

describe("toolware audit on hostile files", () => {
  const value = fc.oneof(
    fc.string(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 2 }),
  );
  const line = fc.oneof(
    fc.string(),
    fc.json(),
    fc
      .record({
        callId: fc.oneof(fc.string(), value),
        tool: fc.oneof(fc.constantFrom("__proto__", "constructor", "web_search", "a\nb", ""), value),
        status: fc.oneof(fc.constantFrom("ok", "blocked", "error"), value),
        durationMs: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), value),
        time: value,
        reason: value,
        redactionFailed: value,
      })
      .map((r) => JSON.stringify(r)),
  );

  it("never fails as a bug: 0 when every file holds a record, 1 when one holds none, stdout or stderr saying so", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 8 }), fc.boolean(), async (lines, newline) => {
        const name = `fuzz-${n++}.jsonl`;
        write(name, lines.join("\n") + (newline ? "\n" : ""));
        const { code, out, err } = await audit(name, "--no-rotated");
        expect(code === 0 || code === 1, err).toBe(true);
        if (code === 0) expect(out).toMatch(/^audit trail: /);
        else expect(err).toMatch(/^toolware: audit: .* (is empty|holds no audit record)/);
      }),
      { numRuns: 150 },
    );
  });
});

// Each child starts Node with tsx's loader: seconds apiece on a loaded machine.
describe("toolware, the process", { timeout: 120_000 }, () => {
  it("exits with the documented codes, results on stdout and errors on stderr", () => {
    write("p.jsonl", `${sample[0]}\n`);
    write("p-empty.jsonl", "");
    const ok = child(["audit", "p.jsonl"], dir);
    expect([ok.code, ok.err]).toEqual([0, ""]);
    expect(ok.out).toMatch(/^audit trail: p\.jsonl\ncalls: 1 .*\n[\s\S]*web_search\s+1 call\s/);
    expect(child(["audit", "p-empty.jsonl"], dir)).toEqual({
      code: 1,
      out: "",
      err: "toolware: audit: p-empty.jsonl is empty: it holds no audit record\n",
    });
    expect(child(["audit", "p.jsonl", "--top", "1e3"], dir)).toMatchObject({
      code: 2,
      out: "",
      err: expect.stringMatching(/--top takes a whole number/),
    });
    expect(child(["sumarise"], dir)).toMatchObject({
      code: 2,
      out: "",
      err: expect.stringMatching(/^toolware: unknown command "sumarise"/),
    });
  });

  it("answers --version and --help on stdout with exit 0", () => {
    expect(child(["--version"], dir)).toEqual({ code: 0, out: `${version}\n`, err: "" });
    const help = child(["--help"], dir);
    expect([help.code, help.err]).toEqual([0, ""]);
    expect(help.out).toMatch(/^usage: toolware <command> \[options\]\n[\s\S]*\n {2}audit +summarise an audit trail/);
  });
});
