import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkDocSnippets, tsBlocks } from "../../../scripts/check-doc-snippets.js";

// The guide's pages, in the seed document's chapter order: they must exist, and (like every page, the pack
// pages in docs/packs included) hold no TypeScript block that is not a checked snippet.
const REPO = fileURLToPath(new URL("../../..", import.meta.url));

const GUIDE_PAGES = [
  "docs/README.md",
  "docs/overview.md",
  "docs/hooks.md",
  "docs/concepts.md",
  "docs/context.md",
  "docs/modifying-inputs.md",
  "docs/registration.md",
  "docs/packs.md",
  "docs/hook-management.md",
  "docs/advanced-patterns.md",
  "docs/best-practices.md",
  "docs/error-handling.md",
  "docs/type-safety.md",
  "docs/integrations.md",
  "docs/troubleshooting.md",
  "docs/coming-from-crewai.md",
  "docs/zh/overview.md",
  "docs/zh/coming-from-crewai.md",
];

describe("docs snippets in this repository", () => {
  it("keeps every `// snippet:` block identical to its file, with no orphan files and no unchecked block", () => {
    const report = checkDocSnippets({ strictPages: GUIDE_PAGES });
    expect(report.problems).toEqual([]);
    expect(report.unchecked).toEqual([]);
    // Guards against a checker that silently finds nothing.
    expect(report.checked).toBeGreaterThanOrEqual(130);
  });

  it("checks the pack pages too: each of docs/packs/*.md shows at least one snippet", () => {
    const packPages = readdirSync(join(REPO, "docs/packs")).filter((name) => name.endsWith(".md"));
    expect(packPages.length).toBeGreaterThanOrEqual(13);
    for (const page of packPages) {
      const blocks = tsBlocks(readFileSync(join(REPO, "docs/packs", page), "utf8"));
      expect(blocks.length, page).toBeGreaterThan(0);
      for (const block of blocks) expect(block.body[0], `docs/packs/${page}:${block.line}`).toMatch(/^\/\/ snippet: /);
    }
  });
});

const FENCE = "`".repeat(3);

describe("checkDocSnippets on a fixture", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fixture(page: string, files: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), "toolware-docs-"));
    mkdirSync(join(root, "docs/snippets"), { recursive: true });
    writeFileSync(join(root, "docs/page.md"), page);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, "docs/snippets", name), text);
    return root;
  }

  it("accepts a block equal to its file, indented inside a list too", () => {
    const file = "// snippet: a-1.ts\nconst a = 1;\n\nexport { a };\n";
    const page = `1. Step:\n\n   ${FENCE}ts\n   // snippet: a-1.ts\n   const a = 1;\n\n   export { a };\n   ${FENCE}\n`;
    const report = checkDocSnippets({ root: fixture(page, { "a-1.ts": file }) });
    expect(report).toMatchObject({ checked: 1, problems: [] });
  });

  it("reports a drifted block with the first differing line, and --write repairs it", () => {
    const file = "// snippet: a-1.ts\nconst a = 2;\n";
    const page = `# Page\n\n${FENCE}ts\n// snippet: a-1.ts\nconst a = 1;\n${FENCE}\n`;
    const dir = fixture(page, { "a-1.ts": file });
    const report = checkDocSnippets({ root: dir });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toContain("docs/page.md:3");
    expect(report.problems[0]).toContain('"const a = 1;" vs "const a = 2;"');

    expect(checkDocSnippets({ root: dir, write: true }).written).toEqual(["docs/page.md"]);
    expect(readFileSync(join(dir, "docs/page.md"), "utf8")).toContain("const a = 2;");
    expect(checkDocSnippets({ root: dir }).problems).toEqual([]);
  });

  it("reports missing files, orphan files, a wrong first line, and unchecked blocks on strict pages", () => {
    const page = `${FENCE}ts\n// snippet: gone.ts\n${FENCE}\n\n${FENCE}ts\nconst free = 1;\n${FENCE}\n\n${FENCE}ts\n// snippet: b.ts\nx;\n${FENCE}\n`;
    const dir = fixture(page, {
      "orphan.ts": "// snippet: orphan.ts\n",
      "_support.ts": "export {};\n",
      "b.ts": "x;\n",
    });
    const loose = checkDocSnippets({ root: dir, exempt: ["docs/"] });
    expect(loose.unchecked).toEqual(["docs/page.md:5"]);
    expect(loose.problems).toEqual([
      "docs/page.md:1: docs/snippets/gone.ts does not exist",
      expect.stringContaining("docs/page.md:9: the block differs from docs/snippets/b.ts"),
      expect.stringContaining("docs/snippets/orphan.ts: no page shows it"),
      "docs/snippets/b.ts: its first line must be `// snippet: b.ts`",
    ]);
    const strict = checkDocSnippets({ root: dir, strictPages: ["docs/page.md", "docs/missing.md"] });
    expect(strict.problems).toContain("docs/page.md:5: a TypeScript block without a `// snippet: <file>` first line");
    expect(strict.problems).toContain("docs/missing.md: the page does not exist");
  });

  it("is strict on every page by default, nested folders such as docs/zh and docs/packs included", () => {
    const block = `${FENCE}typescript\nconst free = 1;\n${FENCE}\n`;
    const dir = fixture("# Page\n", {});
    mkdirSync(join(dir, "docs/zh"));
    mkdirSync(join(dir, "docs/packs"));
    mkdirSync(join(dir, "docs/api"));
    writeFileSync(join(dir, "docs/zh/overview.md"), block);
    writeFileSync(join(dir, "docs/packs/cache.md"), block);
    writeFileSync(join(dir, "docs/api/index.md"), block);
    const report = checkDocSnippets({ root: dir });
    expect(report.problems).toEqual([
      "docs/packs/cache.md:1: a TypeScript block without a `// snippet: <file>` first line",
      "docs/zh/overview.md:1: a TypeScript block without a `// snippet: <file>` first line",
    ]);
    expect(report.unchecked).toEqual([]);

    // A caller can still exempt pages: their free blocks are listed, not reported...
    const exempt = checkDocSnippets({ root: dir, exempt: ["docs/packs/"] });
    expect(exempt.problems).toEqual([
      "docs/zh/overview.md:1: a TypeScript block without a `// snippet: <file>` first line",
    ]);
    expect(exempt.unchecked).toEqual(["docs/packs/cache.md:1"]);
    // ...except a page named in strictPages, which is strict even under an exempt prefix.
    const strict = checkDocSnippets({ root: dir, exempt: ["docs/packs/"], strictPages: ["docs/packs/cache.md"] });
    expect(strict.problems).toHaveLength(2);
    expect(strict.unchecked).toEqual([]);
  });

  it("ignores TypeScript fences nested in other fenced blocks", () => {
    const page = `${"`".repeat(4)}md\n${FENCE}ts\n// snippet: nope.ts\n${FENCE}\n${"`".repeat(4)}\n`;
    expect(tsBlocks(page)).toEqual([]);
  });
});
