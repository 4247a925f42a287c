import { describe, expect, it } from "vitest";
import { main, SECRET } from "../src/main.js";

describe("the gateway example", () => {
  it("hides the denied tool, refuses the escape, writes the draft, redacts the secret, applies the edit", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    expect(summary.listed).toContain("read_text_file");
    expect(summary.listed).not.toContain("move_file");
    const by = Object.fromEntries(summary.calls.map((c) => [c.label, c]));
    expect(by["move_file (hidden)"]).toMatchObject({ isError: true, text: 'Tool "move_file" not found' });
    expect(by["write ../escape.txt"]?.isError).toBe(true);
    expect(by["write draft.txt"]?.isError).toBe(false);
    expect(by["read notes.txt"]?.text).toContain("deploy notes");
    expect(lines.join("\n")).not.toContain(SECRET);
    // A tool the edit denies outright disappears from the list too: the call is answered as for an unknown tool.
    expect(by["read notes.txt after the edit"]?.isError).toBe(true);
  }, 60_000);
});
