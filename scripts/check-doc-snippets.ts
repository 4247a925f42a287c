/**
 * Keeps the TypeScript blocks of the docs identical to the files the root
 * tsconfig type-checks. A block whose first line is `// snippet: <file>` must
 * equal `docs/snippets/<file>` (that first line included), so a snippet that
 * stops compiling fails `tsc` and a block that drifts from its file fails here.
 * Every other ```ts / ```typescript block is an error too (it would not be
 * compiled), except on pages a caller exempts (none by default: every page is
 * strict). `docs/api` (generated) and `docs/snippets` are not read.
 *
 * Run: `npx tsx scripts/check-doc-snippets.ts` to check, `--write` to copy the files into the blocks.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { markdownFiles } from "./markdown-files.js";

/** Where to look, and whether to repair drifted blocks. */
export interface SnippetCheckOptions {
  /** The repository root. Default: this repository. */
  root?: string;
  /** Rewrite drifted blocks from their files instead of reporting them. */
  write?: boolean;
  /**
   * Pages (relative to the root) that must exist. They are strict like every page that is not exempt, and stay
   * strict even under an exempt prefix.
   */
  strictPages?: readonly string[];
  /**
   * Path prefixes (relative to the root, with `/`) of pages whose TypeScript blocks need no snippet marker; such
   * blocks are listed in `unchecked` instead. Default `[]`: every page is strict.
   */
  exempt?: readonly string[];
}

/** What {@link checkDocSnippets} found. */
export interface SnippetReport {
  /** Blocks compared with their file. */
  readonly checked: number;
  /** Human-readable problems; empty when the docs are in sync. */
  readonly problems: readonly string[];
  /** Pages rewritten by `write: true`. */
  readonly written: readonly string[];
  /** `page:line` of the TypeScript blocks on exempt pages that are not snippets, so not compiled. */
  readonly unchecked: readonly string[];
}

/** One fenced TypeScript block of a page. */
export interface CodeBlock {
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly indent: string;
  /** Lines between the fences, indentation removed. */
  readonly body: string[];
  /** Index of the first and last body line in the page's lines. */
  readonly from: number;
  readonly to: number;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_EXEMPT: readonly string[] = [];
const SNIPPET = /^\/\/ snippet: (\S+)\s*$/;
const TS_FENCE = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript|tsx)\b/;

/**
 * The TypeScript blocks of a Markdown page.
 *
 * @example
 * ```ts
 * const fence = "`".repeat(3);
 * tsBlocks(`${fence}ts\nconst a = 1;\n${fence}\n`)[0]?.body; // ["const a = 1;"]
 * ```
 */
export function tsBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = TS_FENCE.exec(lines[i] as string);
    if (open === null) {
      // Skip other fenced blocks whole, so a ```ts inside a ```md example is not taken for a block.
      const other = /^(\s*)(`{3,}|~{3,})/.exec(lines[i] as string);
      if (other !== null) {
        const fence = other[2] as string;
        while (++i < lines.length && !(lines[i] as string).trimStart().startsWith(fence));
      }
      continue;
    }
    const indent = open[1] as string;
    const fence = open[2] as string;
    const from = i + 1;
    let end = from;
    while (end < lines.length && !(lines[end] as string).trimStart().startsWith(fence)) end++;
    const body = lines.slice(from, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
    blocks.push({ line: i + 1, indent, body, from, to: end - 1 });
    i = end;
  }
  return blocks;
}

function firstDifference(a: readonly string[], b: readonly string[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/**
 * Compares every `// snippet:` block of `docs/**\/*.md` with its file in
 * `docs/snippets`, and reports snippet files no page shows.
 *
 * @example
 * ```ts
 * const { problems } = checkDocSnippets();
 * for (const p of problems) console.error(p);
 * ```
 */
export function checkDocSnippets(options: SnippetCheckOptions = {}): SnippetReport {
  const root = options.root ?? ROOT;
  const docsDir = join(root, "docs");
  const snippetsDir = join(docsDir, "snippets");
  const strict = new Set(options.strictPages ?? []);
  const exempt = options.exempt ?? DEFAULT_EXEMPT;
  const problems: string[] = [];
  const written: string[] = [];
  const unchecked: string[] = [];
  const used = new Set<string>();
  let checked = 0;

  // The READMEs show code too: the repository's and each package's.
  const packages = existsSync(join(root, "packages")) ? readdirSync(join(root, "packages")).sort() : [];
  const readmes = ["README.md", ...packages.map((dir) => `packages/${dir}/README.md`)]
    .map((file) => join(root, file))
    .filter((file) => existsSync(file));
  for (const page of [...markdownFiles(docsDir), ...readmes]) {
    const rel = relative(root, page).split(sep).join("/");
    const lenient = !strict.has(rel) && exempt.some((prefix) => rel.startsWith(prefix));
    const lines = readFileSync(page, "utf8").split(/\r?\n/);
    const blocks = tsBlocks(lines.join("\n"));
    let changed = false;
    const pageProblems: string[] = [];
    const pageUnchecked: string[] = [];
    // Replace from the last block up, so earlier line numbers stay valid.
    for (const block of [...blocks].reverse()) {
      const where = `${rel}:${block.line}`;
      const match = SNIPPET.exec(block.body[0] ?? "");
      if (match === null) {
        if (lenient) pageUnchecked.push(where);
        else pageProblems.push(`${where}: a TypeScript block without a \`// snippet: <file>\` first line`);
        continue;
      }
      const name = match[1] as string;
      const file = join(snippetsDir, name);
      used.add(file);
      checked++;
      if (!existsSync(file)) {
        pageProblems.push(`${where}: docs/snippets/${name} does not exist`);
        continue;
      }
      const expected = readFileSync(file, "utf8").replace(/\r\n/g, "\n").replace(/\n+$/, "").split("\n");
      const diff = firstDifference(block.body, expected);
      if (diff === -1) continue;
      if (options.write === true) {
        lines.splice(block.from, block.to - block.from + 1, ...expected.map((l) => (l === "" ? "" : block.indent + l)));
        changed = true;
      } else {
        pageProblems.push(
          `${where}: the block differs from docs/snippets/${name} at its line ${diff + 1}: ` +
            `${JSON.stringify(block.body[diff] ?? "<end of block>")} vs ${JSON.stringify(expected[diff] ?? "<end of file>")}`,
        );
      }
    }
    problems.push(...pageProblems.reverse());
    unchecked.push(...pageUnchecked.reverse());
    if (changed) {
      writeFileSync(page, lines.join("\n"));
      written.push(rel);
    }
  }

  for (const page of strict) {
    if (!existsSync(join(root, page))) problems.push(`${page}: the page does not exist`);
  }
  if (existsSync(snippetsDir)) {
    for (const entry of readdirSync(snippetsDir).sort()) {
      const file = join(snippetsDir, entry);
      // Files starting with "_" support the snippets (such as the module they import) and are not shown.
      if (!entry.endsWith(".ts") || entry.startsWith("_") || used.has(file)) continue;
      problems.push(`docs/snippets/${entry}: no page shows it (add a \`// snippet: ${entry}\` block or delete it)`);
    }
    for (const file of used) {
      if (!existsSync(file)) continue;
      const first = readFileSync(file, "utf8").split(/\r?\n/, 1)[0] ?? "";
      const name = relative(snippetsDir, file);
      if (first !== `// snippet: ${name}`) {
        problems.push(`docs/snippets/${name}: its first line must be \`// snippet: ${name}\``);
      }
    }
  }
  return { checked, problems, written, unchecked };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = checkDocSnippets({ write: process.argv.includes("--write") });
  for (const page of report.written) console.log(`rewrote blocks in ${page}`);
  for (const problem of report.problems) console.error(problem);
  if (report.unchecked.length > 0) {
    console.log(`${report.unchecked.length} TypeScript blocks on exempt pages are not snippets (not compiled):`);
    for (const where of report.unchecked) console.log(`  ${where}`);
  }
  console.log(
    `${report.checked} snippet blocks checked, ${report.unchecked.length} unchecked, ${report.problems.length} problems`,
  );
  if (report.problems.length > 0) process.exitCode = 1;
}
