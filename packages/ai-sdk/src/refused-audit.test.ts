// A call refused at the boundary (arguments that are not an object) is still one line of the audit trail.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { type AuditRecord, audit } from "@toolware/packs/audit";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, describe, expect, it } from "vitest";
import { guardTools } from "./index.js";
import { generateResults } from "./test-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-ai-sdk-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (file: string): AuditRecord[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AuditRecord);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function modelSending(calls: [string, string][]) {
  return new MockLanguageModelV3({
    doGenerate: [
      {
        content: calls.map(([toolCallId, input]) => ({
          type: "tool-call" as const,
          toolCallId,
          toolName: "echo",
          input,
        })),
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      },
      ...generateResults(["done"]),
    ],
  });
}

describe("guardTools with the audit pack", () => {
  it("writes one line for unreadable arguments (TOOLWARE_INVALID_INPUT) and one for a normal call", async () => {
    const file = join(dir, "trail.jsonl");
    const ran: unknown[] = [];
    const echo = tool({
      inputSchema: jsonSchema<unknown>({}),
      execute: async (input) => {
        ran.push(input);
        return "ran";
      },
    });
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    const outcomes: ToolCallOutcome[] = [];
    await generateText({
      model: modelSending([
        ["c1", '"hello"'],
        ["c2", '{"text":"hi"}'],
      ]),
      tools: guardTools(hooks, { echo }, { onOutcome: (o) => outcomes.push(o) }),
      prompt: "go",
      stopWhen: stepCountIs(3),
    });
    expect(ran).toEqual([{ text: "hi" }]);
    expect(outcomes.map((o) => [o.callId, o.status, toolwareCode(o.error) ?? null])).toEqual([
      ["c1", "error", "TOOLWARE_INVALID_INPUT"],
      ["c2", "ok", null],
    ]);
    const trail = lines(file).map((l) => [l.callId, l.tool, l.status, l.code ?? null, l.toolRan, l.input]);
    expect(trail).toHaveLength(2);
    expect(trail).toContainEqual(["c1", "echo", "error", "TOOLWARE_INVALID_INPUT", false, { arguments: "hello" }]);
    expect(trail).toContainEqual(["c2", "echo", "ok", null, true, { text: "hi" }]);
  });
});
