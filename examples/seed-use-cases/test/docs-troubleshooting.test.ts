import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkTroubleshooting,
  documentedCodes,
  extractCodes,
  problems,
} from "../../../scripts/check-troubleshooting.js";

describe("docs/troubleshooting.md", () => {
  it("documents every error code the packages use, and no code they do not", () => {
    const report = checkTroubleshooting();
    expect(problems(report)).toEqual([]);
    // Guards against an extractor that silently finds nothing.
    expect(report.codes.length).toBeGreaterThanOrEqual(13);
    expect(report.outcomeTexts.length).toBeGreaterThanOrEqual(4);
  });

  it("finds the codes of the core and of the packs, where they are thrown", () => {
    const codes = extractCodes();
    expect(codes.map((c) => c.code)).toEqual(
      expect.arrayContaining([
        "TOOLWARE_HOOK_FAILED",
        "TOOLWARE_NEXT_TWICE",
        "TOOLWARE_UNKNOWN_OPTION",
        "TOOLWARE_INVALID_OPTION",
        "TOOLWARE_TOOL_TIMEOUT",
      ]),
    );
    expect(codes.find((c) => c.code === "TOOLWARE_TOOL_TIMEOUT")?.file).toBe("packages/packs/src/timeout/index.ts");
  });
});

describe("checkTroubleshooting on a fixture", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fixture(files: Record<string, string>): string {
    root = mkdtempSync(join(tmpdir(), "toolware-ts-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  const section = (code: string) =>
    `### \`${code}\`\n\n- **Message:** \`toolware: x\`\n- **Cause:** a cause.\n- **Fix:** a fix.\n`;
  const sources = {
    "packages/core/src/a.ts": [
      'throw new ToolwareError("TOOLWARE_ALPHA", "x");',
      "// A comment naming TOOLWARE_IN_A_COMMENT is not a use.",
      'type Code = "TOOLWARE_IN_A_TYPE" extends string ? 1 : 0;',
      'const notACode = "TOOLWARE_ alpha";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a fixture file
      "const failed = (name: string) => `Tool execution failed. Tool: ${name}`;",
    ].join("\n"),
    "packages/packs/src/deep/er/b.ts": "throw packTypeError(`TOOLWARE_BETA`, 'toolware/x: y');\n",
    "packages/packs/src/b.test.ts": 'throw new ToolwareTypeError("TOOLWARE_ONLY_IN_A_TEST", "x");\n',
    "packages/packs/src/test-fixtures.ts": 'export const c = "TOOLWARE_ONLY_IN_FIXTURES";\n',
  };

  it("passes when every code has a complete section and every outcome text is explained", () => {
    const dir = fixture({
      ...sources,
      "docs/troubleshooting.md": `${section("TOOLWARE_ALPHA")}\n${section("TOOLWARE_BETA")}\n| \`Tool execution failed. Tool: <name>\` | … |\n`,
    });
    const report = checkTroubleshooting({ root: dir });
    expect(report.codes.map((c) => [c.code, c.file, c.line])).toEqual([
      ["TOOLWARE_ALPHA", "packages/core/src/a.ts", 1],
      ["TOOLWARE_BETA", "packages/packs/src/deep/er/b.ts", 1],
    ]);
    expect(problems(report)).toEqual([]);
  });

  it("fails on a code the page does not document", () => {
    const dir = fixture({
      ...sources,
      "docs/troubleshooting.md": `${section("TOOLWARE_ALPHA")}\nTOOLWARE_BETA is mentioned in prose, but has no section.\nTool execution failed. Tool: <name>\n`,
    });
    const report = checkTroubleshooting({ root: dir });
    expect(report.undocumented.map((c) => c.code)).toEqual(["TOOLWARE_BETA"]);
    expect(problems(report)).toEqual(["undocumented code TOOLWARE_BETA (used at packages/packs/src/deep/er/b.ts:1)"]);
  });

  it("fails on a stale section: a code no source uses any more", () => {
    const dir = fixture({
      ...sources,
      "docs/troubleshooting.md": [
        section("TOOLWARE_ALPHA"),
        section("TOOLWARE_BETA"),
        section("TOOLWARE_RETIRED"),
        section("TOOLWARE_ONLY_IN_A_TEST"),
        "Tool execution failed. Tool: <name>",
      ].join("\n"),
    });
    const { stale } = checkTroubleshooting({ root: dir });
    expect(stale.map((s) => s.code)).toEqual(["TOOLWARE_RETIRED", "TOOLWARE_ONLY_IN_A_TEST"]);
  });

  it("fails on a section without a message, a cause or a fix, and on an unexplained outcome text", () => {
    const dir = fixture({
      ...sources,
      "docs/troubleshooting.md": `${section("TOOLWARE_ALPHA")}\n## \`TOOLWARE_BETA\`\n\nSomething went wrong.\n\n- **Fix:** retry.\n`,
    });
    const report = checkTroubleshooting({ root: dir });
    expect(problems(report)).toEqual([
      "section TOOLWARE_BETA (line 7) has no **Messages:**, **Cause:**",
      "outcome text not explained: Tool execution failed. Tool: … (packages/core/src/a.ts:5)",
    ]);
  });

  it("reads sections by heading, ending at the next heading of the same level, outside code fences", () => {
    const sections = documentedCodes(
      [
        "## Errors",
        "### TOOLWARE_A",
        "- **Messages:** m",
        "#### Details",
        "- **Cause:** c",
        "- **Fix:** f",
        "### `TOOLWARE_B`",
        "- **Cause:** c",
        "```md",
        "### TOOLWARE_IN_A_FENCE",
        "```",
        "### TOOLWARE_C and more words",
      ].join("\n"),
    );
    expect(sections).toEqual([
      { code: "TOOLWARE_A", line: 2, missing: [] },
      { code: "TOOLWARE_B", line: 7, missing: ["Messages", "Fix"] },
    ]);
  });
});
