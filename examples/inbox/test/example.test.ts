import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { runExample } from "../src/run.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("examples/inbox", () => {
  it("runs send_email exactly once after the approval over HTTP, and tells the agent the rejection's reason", async () => {
    const lines: string[] = [];
    const result = await runExample((line) => lines.push(line));
    // Nothing ran before a decision; the approved call ran once, the rejected one never.
    expect(result.sent).toEqual([{ to: "ann@example.com", callId: "call-1" }]);
    expect(result.toolResults["call-1"]).toBe("sent to ann@example.com");
    expect(result.toolResults["call-2"]).toEqual({
      "@toolware/ai-sdk": "denied",
      reason:
        "Tool execution blocked by hook. Tool: send_email. Reason: send_email was not approved: price announcements go through marketing",
    });
    // The approver saw the addressee: the API hides secrets, not who an e-mail goes to.
    expect(lines).toContain(
      '  approver: send_email({"to":"ann@example.com","body":"Your plan is renewed."}) from support-agent: approve',
    );
    expect(lines.indexOf("  agent:    send_email (call-1) ok")).toBeGreaterThan(
      lines.findIndex((l) => l.startsWith("  approver: send_email") && l.endsWith("approve")),
    );
    expect(lines).toContain(
      "  agent:    send_email (call-2) blocked: send_email was not approved: price announcements go through marketing",
    );
    // Two requests and two decisions at least, in an intact hash chain.
    expect(result.auditRecords).toBeGreaterThanOrEqual(4);
    expect(lines.at(-1)).toBe(`audit: ${result.auditRecords} records, hash chain intact`);
  });

  it("runs as a program", async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [`${root}node_modules/tsx/dist/cli.mjs`, "--conditions", "@toolware/source", "examples/inbox/src/main.ts"],
      { cwd: root, timeout: 60_000 },
    );
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^inbox listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stdout).toMatch(/\nmodel: Ann is told/);
  }, 60_000);
});
