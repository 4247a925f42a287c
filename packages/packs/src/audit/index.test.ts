import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, defineTool, Task, ToolHooks, toolwareCode } from "@toolware/core";
import { afterAll, describe, expect, it } from "vitest";
import { type AuditRecord, audit, REDACTION_FAILED, readAuditTrail } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = (name = "audit") => join(dir, `${name}-${n++}.jsonl`);
const lines = (file: string): AuditRecord[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AuditRecord);

let clock = Date.UTC(2026, 2, 2, 10, 15);
const now = () => clock;
const search = defineTool({
  name: "web_search",
  execute: async ({ query }: { query: string }) => {
    clock += 12.5;
    if (query === "fail") throw new Error("upstream 503 for bob@example.com");
    return `results for ${query}`;
  },
});
const researcher = new Agent({ role: "researcher" });
const task = new Task({ description: "Survey tool-call hooks" });

describe("audit", () => {
  it("appends one line per call: id, time, tool, agent, task, input after hooks, status, reason, result, decisions", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file, now }));
    hooks.before(function trim(ctx) {
      const input = ctx.toolInput as { query: string };
      if (input.query !== input.query.trim()) input.query = input.query.trim();
    });
    hooks.before(function denyList(ctx) {
      if ((ctx.toolInput as { query: string }).query === "secret") ctx.block("query is on the deny list");
    });
    const ok = await hooks.invoke(search, { query: " hooks " }, { agent: researcher, task });
    const blocked = await hooks.invoke(search, { query: "secret" });
    const failed = await hooks.invoke(search, { query: "fail" });
    const [first, second, third, ...rest] = lines(file);
    expect(rest).toEqual([]);
    expect(first).toEqual({
      v: 1,
      time: "2026-03-02T10:15:00.000Z",
      callId: ok.callId,
      tool: "web_search",
      agent: "researcher",
      task: "Survey tool-call hooks",
      input: { query: "hooks" },
      status: "ok",
      toolRan: true,
      reason: null,
      error: null,
      result: "results for hooks",
      durationMs: 12.5,
      hooks: [{ hook: "trim", layer: "global", phase: "before", action: "modified-input" }],
    });
    expect(second).toMatchObject({
      callId: blocked.callId,
      agent: null,
      task: null,
      status: "blocked",
      toolRan: false,
      reason: "query is on the deny list",
      result: blocked.result,
      durationMs: 0,
    });
    expect(second?.hooks.map((h) => `${h.hook}:${h.action}:${h.reason ?? ""}`)).toEqual([
      "denyList:blocked:query is on the deny list",
    ]);
    // The default redaction (the redact pack's detectors) keeps the e-mail out of the file.
    expect(third).toMatchObject({ callId: failed.callId, status: "error", error: "upstream 503 for [EMAIL-REDACTED]" });
    expect(readFileSync(file, "utf8")).not.toContain("bob@example.com");
  });

  it("has the line on disk before the outcome reaches anything outside it", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    const seen: boolean[] = [];
    hooks.after(
      function outside(ctx) {
        seen.push(readFileSync(file, "utf8").includes(`"callId":"${ctx.callId}"`));
      },
      { priority: 5000 },
    );
    for (const durability of ["fsync", "write"] as const) {
      const other = new ToolHooks();
      const f = fresh(durability);
      other.use(audit({ file: f, durability }));
      const out = await other.invoke(search, { query: durability });
      expect(readFileSync(f, "utf8")).toContain(out.callId);
    }
    await hooks.invoke(search, { query: "a" });
    await hooks.invoke(search, { query: "b" });
    expect(seen).toEqual([true, true]);
  });

  it("redacts inputs and texts with the function given, and writes placeholders when it fails", async () => {
    const file = fresh();
    const reported: string[] = [];
    const hooks = new ToolHooks({
      onListenerError: (where, error) => reported.push(`${where}:${toolwareCode(error)}`),
    });
    const redact = (value: unknown): unknown => {
      if (typeof value === "string") {
        if (value.includes("explode")) throw new Error("redactor down");
        return value.replaceAll(/sk-\w+/g, "[KEY]");
      }
      return JSON.parse(JSON.stringify(value).replaceAll(/sk-\w+/g, "[KEY]"));
    };
    hooks.use(audit({ file, redact }));
    await hooks.invoke(search, { query: "sk-live1 please" });
    await hooks.invoke(search, { query: "explode sk-live2" });
    const [clean, broken] = lines(file);
    expect(clean?.input).toEqual({ query: "[KEY] please" });
    expect(clean?.result).toBe("results for [KEY] please");
    expect(clean).not.toHaveProperty("redactionFailed");
    expect(broken?.result).toBe(REDACTION_FAILED);
    expect(broken?.redactionFailed).toBe(true);
    expect(readFileSync(file, "utf8")).not.toContain("sk-live");
    expect(reported).toEqual(["audit.redact:TOOLWARE_REDACT_FAILED"]);
  });

  it("keeps long inputs and results as cut previews, and survives what JSON cannot write", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file, maxInput: 40, maxResult: 20, redact: (v) => v }));
    await hooks.invoke(search, { query: "x".repeat(100) });
    const cyclic: Record<string, unknown> = { query: "c" };
    cyclic.self = cyclic;
    await hooks.invoke(search, cyclic as { query: string });
    await hooks.invoke(search, { query: "big", n: 10n } as unknown as { query: string });
    const [long, cycle, big] = lines(file);
    expect(long?.input).toBe(`{"query":"${"x".repeat(30)}… (+72 chars)`);
    expect(long?.result).toBe("results for xxxxxxxx… (+92 chars)");
    expect(cycle?.input).toBe("[unserialisable]");
    expect(big?.input).toEqual({ query: "big", n: "10" });
  });

  it("keeps every line of concurrent calls whole", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file, durability: "write" }));
    const outs = await Promise.all(Array.from({ length: 300 }, (_, i) => hooks.invoke(search, { query: `q${i}` })));
    const records = lines(file);
    expect(records.map((r) => r.callId).sort()).toEqual(outs.map((o) => o.callId).sort());
  });

  it("starts a line of its own after a line cut short by an earlier crash", async () => {
    const file = fresh();
    const first = new ToolHooks();
    const crashed = audit({ file });
    first.use(crashed);
    await first.invoke(search, { query: "before the crash" });
    crashed.close(); // the process that crashed let go of the file
    appendFileSync(file, '{"v":1,"time":"2026-03-02T10:15:00.000Z","callId":"torn');
    const second = new ToolHooks();
    second.use(audit({ file }));
    const after = await second.invoke(search, { query: "after the restart" });
    const trail = readAuditTrail(file);
    expect(trail.records.map((r) => r.input)).toEqual([{ query: "before the crash" }, { query: "after the restart" }]);
    expect(trail.records[1]?.callId).toBe(after.callId);
    expect(trail.files[0]).toMatchObject({ invalidLines: [2], tornTail: false });
  });
});

describe("audit when the disk fails", () => {
  it("withholds the result by default: the agent never acts on a call the trail does not hold", async () => {
    const hooks = new ToolHooks();
    const codes: unknown[] = [];
    hooks.on("hook:error", ({ error, policy }) => codes.push(`${toolwareCode(error)}:${policy}`));
    // Writing to /dev/full fails with ENOSPC, as a full disk does.
    const trail = audit({ file: "/dev/full", durability: "write" });
    hooks.use(trail);
    const out = await hooks.invoke(search, { query: "q" });
    expect(out.status).toBe("blocked");
    expect(out.result).not.toContain("results for q");
    expect(out.reason).toMatch(/hook audit:record failed: toolware: audit: cannot write to \/dev\/full/);
    expect(codes).toEqual(["TOOLWARE_AUDIT_WRITE_FAILED:block"]);
    trail.close(); // one audit() per file in a process: the next test opens it again
  });

  it('lets the call through with onError: "continue", reporting the failure', async () => {
    const hooks = new ToolHooks();
    const codes: unknown[] = [];
    hooks.on("hook:error", ({ error }) => codes.push(toolwareCode(error)));
    hooks.use(audit({ file: "/dev/full", durability: "write", onError: "continue" }));
    const out = await hooks.invoke(search, { query: "q" });
    expect(out.status).toBe("ok");
    expect(out.result).toBe("results for q");
    expect(codes).toEqual(["TOOLWARE_AUDIT_WRITE_FAILED"]);
  });

  it("fails at start-up when the file cannot be opened", () => {
    const notADir = fresh("plain-file");
    writeFileSync(notADir, "");
    let thrown: unknown;
    try {
      audit({ file: join(notADir, "audit.jsonl") });
    } catch (error) {
      thrown = error;
    }
    expect(toolwareCode(thrown)).toBe("TOOLWARE_AUDIT_OPEN_FAILED");
  });
});

describe("audit options", () => {
  it.each([
    [{}, "TOOLWARE_INVALID_OPTION", "`file` must be a non-empty path"],
    [{ file: "" }, "TOOLWARE_INVALID_OPTION", "`file` must be a non-empty path"],
    [{ file: "a\0b" }, "TOOLWARE_INVALID_OPTION", "`file` must be a non-empty path"],
    [{ file: "a", durability: "sync" }, "TOOLWARE_INVALID_OPTION", '`durability` must be "fsync" or "write"'],
    [{ file: "a", maxBytes: 0 }, "TOOLWARE_INVALID_OPTION", "`maxBytes` must be a positive integer or Infinity"],
    [{ file: "a", maxBytes: Number.NaN }, "TOOLWARE_INVALID_OPTION", "`maxBytes` must be a positive integer"],
    [{ file: "a", redact: true }, "TOOLWARE_INVALID_OPTION", "`redact` must be a function"],
    [{ file: "a", maxInput: 1.5 }, "TOOLWARE_INVALID_OPTION", "`maxInput` must be a positive integer"],
    [{ file: "a", maxResult: -1 }, "TOOLWARE_INVALID_OPTION", "`maxResult` must be a positive integer"],
    [{ file: "a", onError: "throw" }, "TOOLWARE_INVALID_OPTION", '`onError` must be "block" or "continue"'],
    [{ file: "a", now: 5 }, "TOOLWARE_INVALID_OPTION", "`now` must be a function"],
    [{ file: "a", priority: "high" }, "TOOLWARE_INVALID_OPTION", "`priority` must be a finite number"],
    [{ file: "a", durabilty: "write" }, "TOOLWARE_UNKNOWN_OPTION", "unknown option `durabilty`"],
    [null, "TOOLWARE_INVALID_OPTION", "audit() takes an options object"],
  ])("rejects %j", (options, code, message) => {
    let thrown: unknown;
    try {
      audit(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(toolwareCode(thrown)).toBe(code);
    expect((thrown as Error).message).toContain(`toolware/audit: ${message}`);
  });

  it("registers a start and a record hook at priority 1100, blocking on failure by default", () => {
    const hooks = new ToolHooks();
    const pack = audit({ file: fresh() });
    hooks.use(pack);
    expect(hooks.list().map((h) => [h.name, h.kind, h.priority, h.onError])).toEqual([
      ["audit:start", "before", 1100, "block"],
      ["audit:record", "after", 1100, "block"],
    ]);
    expect(pack.file.endsWith(".jsonl")).toBe(true);
    pack.close();
  });
});
