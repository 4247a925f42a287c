import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkTroubleshooting, extractCoreMessages } from "../../../scripts/check-troubleshooting.js";

describe("docs/troubleshooting.md", () => {
  it("explains every message the core throws or writes into an outcome", () => {
    const { messages, missing } = checkTroubleshooting();
    expect(missing.map((m) => `${m.file}:${m.line} ${m.text}`)).toEqual([]);
    // Guards against an extractor that silently finds nothing.
    expect(messages.length).toBeGreaterThanOrEqual(60);
  });

  it("extracts thrown TypeErrors, ToolwareError messages, error-class messages and outcome texts", () => {
    const texts = extractCoreMessages().map((m) => m.text);
    expect(texts).toEqual(
      expect.arrayContaining([
        "toolware: a tool needs a non-empty `name`",
        "wrapExecution() must be called before the tool runs",
        "middleware … returned without calling next(), ctx.respond() or ctx.block(): did you forget `await next()`?",
        "middleware … called next() more than once; the chain runs once per call (use ctx.wrapExecution() to run the tool again)",
        "hook … failed: …",
        "hook … timed out after … ms",
        "Tool execution blocked by hook. Tool: …",
        "Tool execution blocked by hook. Tool: …. Reason: …",
        "Tool result withheld by hook. Tool: …. Reason: …",
        "Tool execution failed. Tool: …. Error: …",
        'toolware: a listener of "…" failed:',
      ]),
    );
    expect(texts.every((t) => !t.includes("describe("))).toBe(true);
  });
});

describe("checkTroubleshooting on a fixture", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fixture(source: string, doc: string): string {
    root = mkdtempSync(join(tmpdir(), "toolware-ts-"));
    mkdirSync(join(root, "packages/core/src"), { recursive: true });
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "packages/core/src/a.ts"), source);
    writeFileSync(join(root, "packages/core/src/a.test.ts"), 'throw new TypeError("toolware: only in a test");\n');
    writeFileSync(join(root, "docs/troubleshooting.md"), doc);
    return root;
  }

  const source = [
    "export function f(name: string) {",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a fixture file
    "  if (!name) throw new TypeError(`toolware: tool ${name} needs an \\`execute\\` function`);",
    '  throw new ToolwareError("wrapExecution() must be called before the tool runs");',
    "}",
    'const label = "not a message";',
  ].join("\n");

  it("matches messages with placeholders where the code interpolates, and skips test files", () => {
    const dir = fixture(
      source,
      "| ``toolware: tool <name> needs an `execute` function`` | … |\n| `toolware: wrapExecution() must be called before the tool runs` |\n",
    );
    const report = checkTroubleshooting({ root: dir });
    expect(report.messages.map((m) => m.text)).toEqual([
      "toolware: tool … needs an `execute` function",
      "wrapExecution() must be called before the tool runs",
    ]);
    expect(report.missing).toEqual([]);
  });

  it("reads a pipe escaped for a Markdown table cell as a pipe", () => {
    const piped = 'throw new TypeError("toolware: `x` must be a function (a) => string | number");\n';
    const escaped = fixture(piped, "| ``toolware: `x` must be a function (a) => string \\| number`` | … |\n");
    expect(checkTroubleshooting({ root: escaped }).missing).toEqual([]);
    rmSync(escaped, { recursive: true, force: true });
    const other = fixture(piped, "| ``toolware: `x` must be a function (a) => string \\| boolean`` | … |\n");
    expect(checkTroubleshooting({ root: other }).missing).toHaveLength(1);
  });

  it("reports a message the page does not mention, or mentions out of order", () => {
    const dir = fixture(source, "toolware: needs an `execute` function tool <name>\n");
    const { missing } = checkTroubleshooting({ root: dir });
    expect(missing.map((m) => [m.file, m.line, m.prefix])).toEqual([
      ["packages/core/src/a.ts", 2, "toolware: tool "],
      ["packages/core/src/a.ts", 3, "wrapExecution() must be called before the tool runs"],
    ]);
  });
});
