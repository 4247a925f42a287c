import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { anchorsOf, checkDocLinks, slug } from "../../../scripts/check-doc-links.js";

describe("the links of docs/", () => {
  it("all resolve: files, folders and #anchors", () => {
    const report = checkDocLinks();
    expect(report.broken.map((b) => `${b.page}:${b.line}: ${b.target}: ${b.problem}`)).toEqual([]);
    // Guards against a checker that silently finds nothing.
    expect(report.checked).toBeGreaterThanOrEqual(200);
  });
});

const FENCE = "`".repeat(3);

describe("slug and anchorsOf", () => {
  it("make GitHub's anchors from headings with code, punctuation, emoji and Chinese", () => {
    expect(slug("`ctx.block()` on the way in and out")).toBe("ctxblock-on-the-way-in-and-out");
    expect(slug("`use`, `before` and `after`")).toBe("use-before-and-after");
    expect(slug("`hook:error` and listener errors")).toBe("hookerror-and-listener-errors");
    expect(slug("Unregistering: handles, `remove` and `clear`")).toBe("unregistering-handles-remove-and-clear");
    expect(slug("1. Safety guardrails 🛑")).toBe("1-safety-guardrails-");
    expect(slug("工具调用 Hook 概览")).toBe("工具调用-hook-概览");
    expect(slug("snake_case and dash-case")).toBe("snake_case-and-dash-case");
  });

  it("numbers repeated headings and ignores headings inside code blocks", () => {
    const page = `# Usage\n\n## Usage\n\n${FENCE}md\n# Not a heading\n${FENCE}\n\n<a id="custom"></a>\n`;
    expect([...anchorsOf(page)]).toEqual(["usage", "usage-1", "custom"]);
  });
});

describe("checkDocLinks on a fixture", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fixture(pages: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), "toolware-links-"));
    mkdirSync(join(root, "docs/zh"), { recursive: true });
    mkdirSync(join(root, "docs/api"), { recursive: true });
    mkdirSync(join(root, "examples"), { recursive: true });
    for (const [name, text] of Object.entries(pages)) writeFileSync(join(root, name), text);
    return root;
  }

  it("reports missing files and anchors, and checks reference definitions", () => {
    const dir = fixture({
      "docs/a.md": [
        "# Title",
        "",
        "See [b](b.md), [its part](b.md#part-two), [here](#title), [examples](../examples/).",
        "Broken: [gone](gone.md), [bad anchor](b.md#part-three), [self](#nope), [dir](../examples/#x).",
        "",
        "[ref]: zh/c.md#missing",
      ].join("\n"),
      "docs/b.md": "# B\n\n## Part two\n",
      "docs/zh/c.md": "# 标题\n\n[back](../a.md#title)\n",
    });
    const { checked, broken } = checkDocLinks({ root: dir });
    expect(checked).toBe(10);
    expect(broken.map((b) => [b.page, b.line, b.target, b.problem])).toEqual([
      ["docs/a.md", 4, "gone.md", "docs/gone.md does not exist"],
      ["docs/a.md", 4, "b.md#part-three", "no heading with the anchor #part-three"],
      ["docs/a.md", 4, "#nope", "no heading with the anchor #nope"],
      ["docs/a.md", 4, "../examples/#x", "a #fragment on something that is not a Markdown page"],
      ["docs/a.md", 6, "zh/c.md#missing", "no heading with the anchor #missing"],
    ]);
  });

  it("skips external links, links shown as code, and the generated docs/api", () => {
    const dir = fixture({
      "docs/a.md": [
        "[site](https://example.com/x.md) [mail](mailto:a@b.c) `[not a link](gone.md)`",
        "",
        `${FENCE}ts`,
        "const a = '[x](gone.md)';",
        FENCE,
      ].join("\n"),
      "docs/api/index.md": "[gone](gone.md)\n",
    });
    expect(checkDocLinks({ root: dir })).toEqual({ checked: 0, broken: [] });
  });
});
