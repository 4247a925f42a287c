// A call refused at the boundary (arguments that are not an object) is still one line of the audit trail.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { type AuditRecord, audit } from "@toolware/packs/audit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardAgent, tool } from "./index.js";

beforeAll(() => setTracingDisabled(true));
const dir = mkdtempSync(join(tmpdir(), "toolware-openai-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (file: string): AuditRecord[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AuditRecord);

describe("guardAgent with the audit pack", () => {
  it("writes one line for unreadable arguments (TOOLWARE_INVALID_INPUT) and one for a normal call", async () => {
    const file = join(dir, "trail.jsonl");
    const ran: unknown[] = [];
    const echo = tool({
      name: "echo",
      description: "echo",
      parameters: { type: "object", properties: {}, required: [], additionalProperties: true },
      strict: false,
      execute: (input) => {
        ran.push(input);
        return "ran";
      },
    });
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    const outcomes: ToolCallOutcome[] = [];
    const model = new ScriptedModel([
      [functionCall("echo", '"hello"', { callId: "c1" })],
      [functionCall("echo", '{"text":"hi"}', { callId: "c2" })],
      [assistantMessage("ok")],
    ]);
    await run(
      guardAgent(new Agent({ name: "a", model, tools: [echo] }), hooks, { onOutcome: (o) => outcomes.push(o) }),
      "go",
    );
    expect(ran).toEqual([{ text: "hi" }]);
    expect(outcomes.map((o) => [o.callId, o.status, toolwareCode(o.error) ?? null])).toEqual([
      ["c1", "error", "TOOLWARE_INVALID_INPUT"],
      ["c2", "ok", null],
    ]);
    const trail = lines(file).map((l) => [l.callId, l.tool, l.status, l.code ?? null, l.toolRan, l.input]);
    expect(trail).toEqual([
      ["c1", "echo", "error", "TOOLWARE_INVALID_INPUT", false, { arguments: "hello" }],
      ["c2", "echo", "ok", null, true, { text: "hi" }],
    ]);
  });
});
