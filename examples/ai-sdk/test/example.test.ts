import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runExample } from "../src/run.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/ai-sdk", () => {
  it("guards the SDK's loop: redaction, a guardrail denial, and approval through the SDK's flow", async () => {
    const lines: string[] = [];
    const { first, second } = await runExample((line) => lines.push(line));
    const sawByModel = JSON.stringify(first.steps[1]?.request.body ?? first.response.messages);
    expect(sawByModel).not.toContain("sk-live");
    expect(lines).toContain("  ok      lookup_customer (call-1)");
    expect(lines.some((l) => l.startsWith("  blocked delete_account (call-2)"))).toBe(true);
    expect(lines).toContain("  the SDK asks the user to approve send_email (call-3)");
    expect(lines).toContain("  ok      send_email (call-3)");
    expect(second.text).toMatch(/renewed/);
    const denied = first.response.messages
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as { type: string; toolCallId?: string }[]) : []))
      .find((p) => p.type === "tool-result" && p.toolCallId === "call-2");
    expect(denied).toMatchObject({ output: { type: "execution-denied" } });
  });

  it("runs as a program", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/ai-sdk/src/main.ts"],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^run 1\n/);
    expect(stdout).toMatch(/model: Ann's plan is renewed/);
  }, 60_000);
});
