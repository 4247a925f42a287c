// Calls that end before any hook runs still get their one line: arguments an adapter refused, inputs a schema rejected.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, defineTool, readArguments, refusedOutcome, ToolHooks } from "@toolware/core";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type AuditRecord, audit } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-audit-refused-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `audit-${n++}.jsonl`);
const lines = (file: string): AuditRecord[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .trimEnd()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as AuditRecord)
    : [];

function refuseUnreadable(hooks: ToolHooks, input: unknown, bindings?: unknown) {
  try {
    readArguments("send_email", input);
  } catch (error) {
    return refusedOutcome(hooks, "test", "send_email", "call_0", error, { input, bindings });
  }
  throw new Error("accepted");
}

const email = defineTool({
  name: "send_email",
  inputSchema: z.object({ to: z.string() }),
  execute: ({ to }: { to: string }) => `sent to ${to}`,
});

describe("audit: calls refused before the chain", () => {
  it("writes one error line for arguments an adapter refused, with the code and the agent", () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    const outcome = refuseUnreadable(hooks, "hello", { agent: new Agent({ role: "mailer" }) });
    expect(outcome.status).toBe("error");
    const [line, ...more] = lines(file);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      callId: "call_0",
      tool: "send_email",
      agent: "mailer",
      input: { arguments: "hello" },
      status: "error",
      toolRan: false,
      hooks: [],
    });
    expect(line?.code).toBe("TOOLWARE_INVALID_INPUT");
    expect(line?.result).toContain("(TOOLWARE_INVALID_INPUT)");
    expect(line?.error).toMatch(/must be a JSON object/);
  });

  it("writes one line for an input the tool's schema rejected, and still one for a normal call", async () => {
    const file = fresh();
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    await hooks.invoke(email, { to: 1 } as never);
    await hooks.invoke(email, { to: "a@b.c" });
    const written = lines(file);
    expect(written.map((l) => [l.status, l.toolRan])).toEqual([
      ["error", false],
      ["ok", true],
    ]);
    expect(written[0]?.code).toBe("TOOLWARE_INPUT_REJECTED");
    expect(written[1]).not.toHaveProperty("code");
  });

  it("writes nothing for a tool outside its filter, nor once it is unregistered", () => {
    const file = fresh();
    const hooks = new ToolHooks();
    const off = hooks.use(audit({ file, tools: "read_*" }));
    refuseUnreadable(hooks, 42);
    const file2 = fresh();
    const off2 = hooks.use(audit({ file: file2 }));
    off2();
    refuseUnreadable(hooks, 42);
    off();
    expect(lines(file)).toEqual([]);
    expect(lines(file2)).toEqual([]);
  });
});
