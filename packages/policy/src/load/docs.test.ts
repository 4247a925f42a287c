// The policy files docs/policy.md shows in its File reference load as they are.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePolicyText } from "../index.js";

const page = readFileSync(new URL("../../../../docs/policy.md", import.meta.url), "utf8");
const reference = page.slice(page.indexOf("## File reference"), page.indexOf("## Conditions (CEL)"));

describe("docs/policy.md, File reference", () => {
  it("opens with a whole policy file that loads", () => {
    const first = /```yaml\n([\s\S]*?)```/.exec(reference)?.[1] ?? "";
    const loaded = parsePolicyText(first, { file: "docs/policy.md" });
    expect(loaded.document.rules.map((r) => r.name)).toEqual([
      "juniors-cannot-delete",
      "no-paths-outside-work",
      "ask-before-email",
      "everything",
    ]);
    expect(loaded.document.rules[3]?.packs?.["rate-limit"]).toEqual({ max: 30, per: 60_000, key: "tool+agent" });
  });

  it("shows the error a misspelt key and value give, as the loader words it", () => {
    const shown = /```text\n([\s\S]*?)```/.exec(reference)?.[1]?.trim().split("\n") ?? [];
    const text =
      "version: 1\ndefualt: deny\nrules:\n  - name: a\n    decide: deny\n  - name: b\n    match:\n      tools: [x]\n    decide: alow\n";
    const message = (() => {
      try {
        parsePolicyText(text, { file: "toolware.policy.yaml" });
      } catch (error) {
        return (error as Error).message.split("\n");
      }
      return [];
    })();
    // The page shows two of the problems (the missing `default` is left out for brevity).
    expect(shown[1]).toBe(message[2]);
    expect(shown[2]).toBe(message[3]);
  });
});
