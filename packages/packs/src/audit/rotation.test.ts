import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { defineTool, ToolHooks } from "@toolware/core";
import { afterAll, describe, expect, it } from "vitest";
import { audit, auditFiles, readAuditTrail } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-audit-rotation-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const echo = defineTool({ name: "echo", execute: ({ text }: { text: string }) => text });

async function calls(file: string, count: number, maxBytes: number, from = 0): Promise<string[]> {
  const hooks = new ToolHooks();
  const pack = audit({ file, maxBytes, durability: "write" });
  hooks.use(pack);
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    // Lines of varied length, so files fill unevenly.
    ids.push((await hooks.invoke(echo, { text: `call ${i} ${"·".repeat((i * 37) % 120)}` })).callId);
  }
  pack.close();
  return ids;
}

describe("audit rotation", () => {
  it("keeps every line, in order, never splitting one and never passing maxBytes", async () => {
    const file = join(dir, "trail.jsonl");
    const ids = await calls(file, 300, 4096);
    const files = auditFiles(file);
    expect(files.length).toBeGreaterThan(5);
    expect(files.map((f) => basename(f))).toEqual([
      ...Array.from({ length: files.length - 1 }, (_, i) => `trail.jsonl.${i + 1}`),
      "trail.jsonl",
    ]);
    for (const f of files) {
      expect(statSync(f).size).toBeLessThanOrEqual(4096);
      expect(readFileSync(f, "utf8").endsWith("\n")).toBe(true);
    }
    const trail = readAuditTrail(file);
    expect(trail.records.map((r) => r.callId)).toEqual(ids);
    expect(trail.files.every((f) => f.invalidLines.length === 0)).toBe(true);
  });

  it("goes on numbering after a restart instead of overwriting a rotated file", async () => {
    const file = join(dir, "restart.jsonl");
    const before = await calls(file, 60, 2048);
    const rotatedBefore = auditFiles(file).length - 1;
    const after = await calls(file, 60, 2048, 60);
    expect(auditFiles(file).length - 1).toBeGreaterThan(rotatedBefore);
    expect(readAuditTrail(file).records.map((r) => r.callId)).toEqual([...before, ...after]);
  });

  it("writes a line longer than maxBytes alone in its file", async () => {
    const file = join(dir, "huge.jsonl");
    const hooks = new ToolHooks();
    hooks.use(audit({ file, maxBytes: 300, durability: "write", maxInput: 10_000, maxResult: 10_000 }));
    await hooks.invoke(echo, { text: "small" });
    await hooks.invoke(echo, { text: "x".repeat(1000) });
    await hooks.invoke(echo, { text: "small again" });
    const sizes = auditFiles(file).map((f) => readFileSync(f, "utf8").split("\n").length - 1);
    expect(sizes).toEqual([1, 1, 1]);
    expect(readAuditTrail(file).records.map((r) => (r.input as { text: string }).text.length)).toEqual([5, 1000, 11]);
  });

  it("reads one file alone with rotated: false, and ignores unrelated neighbours", async () => {
    const file = join(dir, "alone.jsonl");
    await calls(file, 40, 2048);
    await calls(join(dir, "alone.jsonl.bak"), 1, 2048);
    expect(readdirSync(dir).some((f) => f.startsWith("alone.jsonl.bak"))).toBe(true);
    const all = readAuditTrail(file);
    const current = readAuditTrail(file, { rotated: false });
    expect(all.records).toHaveLength(40);
    expect(current.files.map((f) => f.file)).toEqual([file]);
    expect(current.records.length).toBeLessThan(40);
  });
});
