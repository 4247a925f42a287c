// The `context` option: who made the call and what decided it, one flat map per line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, ToolHooks } from "@toolware/core";
import { afterAll, describe, expect, it } from "vitest";
import { type AuditRecord, audit } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-audit-context-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `audit-${n++}.jsonl`);
const lines = (file: string): AuditRecord[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as AuditRecord)
    : [];
const echo = defineTool({ name: "echo", execute: ({ text }: { text: string }) => text });

describe("audit: context", () => {
  it("writes the context read when the call ends, for a call that ran and one a hook blocked", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file, durability: "write", context: (ctx) => ({ rule: ctx.blockReason ? "gate" : "open" }) }));
    hooks.before(function gate(ctx) {
      if ((ctx.toolInput as { text: string }).text === "no") ctx.block("closed");
    });
    await hooks.invoke(echo, { text: "yes" });
    await hooks.invoke(echo, { text: "no" });
    expect(lines(file).map((l) => [l.status, l.context])).toEqual([
      ["ok", { rule: "open" }],
      ["blocked", { rule: "gate" }],
    ]);
  });

  it("redacts and cuts strings, keeps numbers and booleans, drops everything else", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    const huge = "x".repeat(10_000);
    hooks.use(
      audit({
        file,
        durability: "write",
        maxResult: 50,
        context: () =>
          ({
            client: `sk-proj-abc123def456ghi789jkl ${huge}`,
            version: 3,
            trusted: false,
            nan: Number.NaN,
            nested: { a: 1 },
            gone: undefined,
          }) as never,
      }),
    );
    await hooks.invoke(echo, { text: "hi" });
    const [line] = lines(file);
    expect(Object.keys(line?.context ?? {})).toEqual(["client", "version", "trusted"]);
    expect(line?.context?.client).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(String(line?.context?.client).length).toBeLessThanOrEqual(70);
    expect(line?.context).toMatchObject({ version: 3, trusted: false });
  });

  it("writes the line without context and reports a context function that throws; the call is unchanged", async () => {
    const file = fresh();
    const reported: string[] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push(`${where}:${String(error)}`) });
    hooks.use(
      audit({
        file,
        durability: "write",
        context: () => {
          throw new Error("no session");
        },
      }),
    );
    const out = await hooks.invoke(echo, { text: "hi" });
    expect(out.status).toBe("ok");
    expect(out.result).toBe("hi");
    const [line, ...more] = lines(file);
    expect(more).toEqual([]);
    expect(line?.context).toBeUndefined();
    expect(line?.status).toBe("ok");
    expect(reported).toEqual(["audit.context:Error: no session"]);
  });

  it("writes no context when it returns nothing, and refuses a context that is not a function", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file, durability: "write", context: () => undefined }));
    await hooks.invoke(echo, { text: "hi" });
    expect(lines(file)[0]).not.toHaveProperty("context");
    expect(() => audit({ file: fresh(), context: { rule: "x" } as never })).toThrow(/`context` must be a function/);
    expect(() => audit({ file: fresh(), contxt: () => ({}) } as never)).toThrow(/did you mean `context`/);
  });
});
