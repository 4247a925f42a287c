import { describe, expect, it } from "vitest";
import { main } from "../src/02-approval-gate.js";

describe("02 approval gate", () => {
  it("runs only explicitly approved calls, applies edits, remembers 'always' and fails closed", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    expect(summary.calls).toEqual([
      { label: "send_email", status: "ok" },
      {
        label: "make_purchase",
        status: "blocked",
        reason: 'a human did not approve make_purchase (answer: "no, over budget")',
      },
      { label: "delete_file", status: "ok" },
      {
        label: "send_email again",
        status: "blocked",
        reason: 'a human did not approve send_email (answer: "YES please")',
      },
      { label: "post_message", status: "ok" },
      { label: "post_message again (remembered)", status: "ok" },
      { label: "read_file (no approval needed)", status: "ok" },
      {
        label: "make_purchase with nobody left to ask",
        status: "blocked",
        reason: expect.stringMatching(/^approval for make_purchase could not be requested: .*no answer left/),
      },
      {
        label: "send_email with nobody answering",
        status: "blocked",
        reason: "no approval for send_email within 25 ms",
      },
    ]);
    expect(summary.ran).toEqual([
      { tool: "send_email", input: { to: "team@example.com", subject: "Weekly report" } },
      { tool: "delete_file", input: { path: "tmp/old-report.txt" } },
      { tool: "post_message", input: { channel: "#general", text: "Deployed" } },
      { tool: "post_message", input: { channel: "#ops", text: "Done" } },
      { tool: "read_file", input: { path: "notes.md" } },
    ]);
    expect(summary.questions).toHaveLength(6);
    expect(summary.questions[0]).toBe(
      'Approve send_email? | Input: {"to":"team@example.com","subject":"Weekly report"}',
    );
    expect(summary.decisions).toEqual([
      "send_email: human/true",
      "make_purchase: human/false",
      "delete_file: human/true",
      "send_email: human/false",
      "post_message: human/true",
      "post_message: remembered/true",
      "make_purchase: unavailable/false",
    ]);
    expect(lines.filter((l) => l.startsWith("❌"))).toHaveLength(4);
  });
});
