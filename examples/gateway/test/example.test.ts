import { readFileSync } from "node:fs";
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
    expect(by["read .env"]).toMatchObject({ isError: true });
    expect(by["read .env"]?.text).toContain(".env files stay private");
    expect(lines.join("\n")).not.toContain(SECRET);
    // The edit applies to the next call, on the same connection.
    expect(by["read notes.txt after the edit"]?.isError).toBe(true);
    // Every call the chain ran is an audit line naming its policy rule; hidden names never reach the chain.
    expect(summary.audit).toEqual([
      "write_file blocked: policy:default proceeded, policy:packs blocked",
      "write_file ok: policy:default proceeded, policy:packs modified-input",
      "read_text_file ok: policy:default proceeded, policy:packs modified-result",
      "read_text_file blocked: policy:no-env-files blocked",
      "read_text_file blocked: policy:no-notes blocked",
    ]);
  }, 60_000);

  it("runs the filesystem policy of docs/gateway.md, as the page shows it", () => {
    const page = readFileSync(new URL("../../../docs/gateway.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("## A policy for a filesystem server"));
    const shown = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(readFileSync(new URL("../src/toolware.policy.yaml", import.meta.url), "utf8")).toBe(shown);
  });
});
