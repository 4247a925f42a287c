/**
 * Checks that docs/troubleshooting.md documents every error code the packages use, by code:
 *
 * - every string literal `"TOOLWARE_…"` in the non-test `.ts` files of `packages/<name>/src`
 *   must have a section on the page: a heading that is the code (`### \`TOOLWARE_X\``) with
 *   `**Messages:**` (or `**Message:**`), `**Cause:**` and `**Fix:**` in its body;
 * - every code the page has a section for must still be used somewhere (no stale sections);
 * - the agent-facing outcome texts (`Tool execution …`, `Tool result …`) must appear on the page,
 *   with any placeholder (`<name>`) where the code interpolates a value.
 *
 * Run: `npx tsx scripts/check-troubleshooting.ts` (exit code 1 on any problem; `--list` lists the codes).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

/** Where a code is used first. */
export interface CodeUse {
  readonly code: string;
  /** Path relative to the root, e.g. `packages/core/src/errors.ts`. */
  readonly file: string;
  readonly line: number;
}

/** A section of the page that documents one code. */
export interface CodeSection {
  readonly code: string;
  /** Line of its heading on the page. */
  readonly line: number;
  /** The labels its body lacks (`Messages`, `Cause`, `Fix`). */
  readonly missing: readonly string[];
}

/** An agent-facing text written into outcomes. */
export interface OutcomeText {
  readonly file: string;
  readonly line: number;
  /** The literal with every `${…}` shown as `…`. */
  readonly text: string;
  /** Matches the text in prose where each `${…}` may be written as any placeholder (`<name>`). */
  readonly pattern: RegExp;
}

/** What {@link checkTroubleshooting} found. */
export interface TroubleshootingReport {
  readonly codes: readonly CodeUse[];
  readonly sections: readonly CodeSection[];
  /** Codes the sources use that the page has no section for. */
  readonly undocumented: readonly CodeUse[];
  /** Sections for codes that no source uses any more. */
  readonly stale: readonly CodeSection[];
  /** Sections without a message, a cause or a fix. */
  readonly incomplete: readonly CodeSection[];
  readonly outcomeTexts: readonly OutcomeText[];
  /** Outcome texts the page does not mention. */
  readonly missingOutcomeTexts: readonly OutcomeText[];
}

/** Where to look; everything defaults to this repository. */
export interface TroubleshootingOptions {
  /** The repository root: sources are read from `<root>/packages/*\/src`. */
  root?: string;
  /** The page. Default `<root>/docs/troubleshooting.md`. */
  doc?: string;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CODE = /^TOOLWARE_[A-Z0-9_]+$/;
const OUTCOME_PREFIXES = ["Tool execution ", "Tool result "];
// The labels a section's body needs (`**Message:**` for a code with a single message).
const LABELS: readonly (readonly [string, RegExp])[] = [
  ["Messages", /\*\*Messages?:\*\*/],
  ["Cause", /\*\*Cause:\*\*/],
  ["Fix", /\*\*Fix:\*\*/],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function isTestFile(name: string): boolean {
  return /\.test(-d)?\.ts$/.test(name) || name.endsWith(".d.ts") || name === "test-fixtures.ts";
}

/** Every non-test `.ts` file under `dir`, sorted, recursively. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    // An `e2e` folder is test code (left out of every tarball), like a `.test.ts` file.
    if (entry.isDirectory()) {
      if (entry.name !== "e2e") out.push(...sourceFiles(path));
    } else if (entry.name.endsWith(".ts") && !isTestFile(entry.name)) out.push(path);
  }
  return out;
}

function packageSources(root: string): string[] {
  const packages = join(root, "packages");
  if (!existsSync(packages)) return [];
  return readdirSync(packages, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(packages, d.name, "src")))
    .map((d) => d.name)
    .sort()
    .flatMap((name) => sourceFiles(join(packages, name, "src")));
}

function walk(root: string, visit: (node: ts.Node, at: (node: ts.Node) => { file: string; line: number }) => void) {
  for (const path of packageSources(root)) {
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const at = (node: ts.Node) => ({
      file: relative(root, path),
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
    });
    const step = (node: ts.Node): void => {
      visit(node, at);
      ts.forEachChild(node, step);
    };
    step(source);
  }
}

/**
 * The codes the sources use: string literals that are exactly a code (comments and literal types do not count).
 *
 * @example
 * ```ts
 * extractCodes().map((c) => c.code); // ["TOOLWARE_HOOK_FAILED", …]
 * ```
 */
export function extractCodes(root = ROOT): CodeUse[] {
  const found = new Map<string, CodeUse>();
  walk(root, (node, at) => {
    const literal = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
    // A literal type (`type C = "TOOLWARE_X"`) names a code; only values can be thrown or reported.
    if (literal && CODE.test(node.text) && !ts.isLiteralTypeNode(node.parent)) {
      if (!found.has(node.text)) found.set(node.text, { code: node.text, ...at(node) });
    }
  });
  return [...found.values()].sort((a, b) => a.code.localeCompare(b.code));
}

/** The agent-facing texts of the sources (literals starting `Tool execution ` or `Tool result `). */
export function extractOutcomeTexts(root = ROOT): OutcomeText[] {
  const seen = new Set<string>();
  const found: OutcomeText[] = [];
  walk(root, (node, at) => {
    let pieces: string[];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) pieces = [node.text];
    else if (ts.isTemplateExpression(node)) pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
    else return;
    if (!OUTCOME_PREFIXES.some((p) => pieces[0]?.startsWith(p))) return;
    const text = pieces.join("…");
    if (seen.has(text)) return;
    seen.add(text);
    found.push({ ...at(node), text, pattern: new RegExp(pieces.map(escapeRegExp).join(".*?")) });
  });
  return found;
}

/**
 * The sections of the page that document a code: a heading (any level) whose text is the code,
 * up to the next heading of the same or a higher level.
 *
 * @example
 * ```ts
 * documentedCodes("### `TOOLWARE_X`\n\n- **Messages:** …\n- **Cause:** …\n- **Fix:** …\n"); // [{ code: "TOOLWARE_X", line: 1, missing: [] }]
 * ```
 */
export function documentedCodes(markdown: string): CodeSection[] {
  const lines = markdown.split("\n");
  const sections: CodeSection[] = [];
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trimStart().startsWith("```")) fence = !fence;
    const heading = fence ? null : /^(#{1,6})\s+`?(TOOLWARE_[A-Z0-9_]+)`?\s*$/.exec(line);
    if (heading === null) continue;
    const level = (heading[1] as string).length;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const next = /^(#{1,6})\s/.exec(lines[j] as string);
      if (next !== null && (next[1] as string).length <= level) break;
      body.push(lines[j] as string);
    }
    const text = body.join("\n");
    const missing = LABELS.filter(([, label]) => !label.test(text)).map(([name]) => name);
    sections.push({ code: heading[2] as string, line: i + 1, missing });
  }
  return sections;
}

/**
 * Compares the codes of the sources with the sections of the page, and checks the outcome texts.
 * A `|` written `\|` (as inside a Markdown table cell) counts as `|` for the outcome texts.
 *
 * @example
 * ```ts
 * const { undocumented, stale } = checkTroubleshooting();
 * if (undocumented.length + stale.length > 0) process.exitCode = 1;
 * ```
 */
export function checkTroubleshooting(options: TroubleshootingOptions = {}): TroubleshootingReport {
  const root = options.root ?? ROOT;
  const doc = readFileSync(options.doc ?? join(root, "docs/troubleshooting.md"), "utf8");
  const codes = extractCodes(root);
  const sections = documentedCodes(doc);
  const used = new Set(codes.map((c) => c.code));
  const documented = new Set(sections.map((s) => s.code));
  const outcomeTexts = extractOutcomeTexts(root);
  const prose = doc.replaceAll("\\|", "|");
  return {
    codes,
    sections,
    undocumented: codes.filter((c) => !documented.has(c.code)),
    stale: sections.filter((s) => !used.has(s.code)),
    incomplete: sections.filter((s) => s.missing.length > 0),
    outcomeTexts,
    missingOutcomeTexts: outcomeTexts.filter((t) => !t.pattern.test(prose)),
  };
}

/** The problems of a report, one line each; empty when the page is complete. */
export function problems(report: TroubleshootingReport): string[] {
  return [
    ...report.undocumented.map((c) => `undocumented code ${c.code} (used at ${c.file}:${c.line})`),
    ...report.stale.map((s) => `stale section ${s.code} (line ${s.line}): no source uses this code`),
    ...report.incomplete.map(
      (s) => `section ${s.code} (line ${s.line}) has no ${s.missing.map((m) => `**${m}:**`).join(", ")}`,
    ),
    ...report.missingOutcomeTexts.map((t) => `outcome text not explained: ${t.text} (${t.file}:${t.line})`),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = checkTroubleshooting();
  if (process.argv.includes("--list")) for (const c of report.codes) console.log(`${c.code}\t${c.file}:${c.line}`);
  const found = problems(report);
  for (const p of found) console.error(`docs/troubleshooting.md: ${p}`);
  console.log(
    `${report.codes.length - report.undocumented.length}/${report.codes.length} codes documented, ` +
      `${report.outcomeTexts.length - report.missingOutcomeTexts.length}/${report.outcomeTexts.length} outcome texts explained`,
  );
  if (found.length > 0) process.exitCode = 1;
}
