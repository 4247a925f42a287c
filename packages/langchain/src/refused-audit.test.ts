// A call refused at the boundary (arguments that are not an object) is still one line of the audit trail.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { type ToolCallResult, toolwareMiddleware } from "@toolware/langchain";
import { type AuditRecord, audit } from "@toolware/packs/audit";
import { createAgent } from "langchain";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const dir = mkdtempSync(join(tmpdir(), "toolware-langchain-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (file: string): AuditRecord[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AuditRecord);

describe("toolwareMiddleware with the audit pack", () => {
  it("writes one line for unreadable arguments (TOOLWARE_INVALID_INPUT) and one for a normal call", async () => {
    const file = join(dir, "trail.jsonl");
    const ran: unknown[] = [];
    const echo = tool(
      async (input: unknown) => {
        ran.push(input);
        return "ran";
      },
      { name: "echo", schema: z.any() },
    );
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    const outcomes: ToolCallOutcome<ToolCallResult>[] = [];
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: "",
          tool_calls: [
            { name: "echo", args: [1, 2] as never, id: "c1" },
            { name: "echo", args: { text: "hi" }, id: "c2" },
          ],
        }),
      )
      .respond(new AIMessage("done"));
    const agent = createAgent({
      model,
      tools: [echo],
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => outcomes.push(o) })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    expect(ran).toEqual([{ text: "hi" }]);
    expect(outcomes.map((o) => [o.callId, o.status, toolwareCode(o.error) ?? null]).sort()).toEqual([
      ["c1", "error", "TOOLWARE_INVALID_INPUT"],
      ["c2", "ok", null],
    ]);
    const trail = lines(file).map((l) => [l.callId, l.tool, l.status, l.code ?? null, l.toolRan, l.input]);
    expect(trail).toHaveLength(2);
    expect(trail).toContainEqual(["c1", "echo", "error", "TOOLWARE_INVALID_INPUT", false, { arguments: [1, 2] }]);
    expect(trail).toContainEqual(["c2", "echo", "ok", null, true, { text: "hi" }]);
  });
});
