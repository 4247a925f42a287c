/**
 * Checks the relative links of the docs: every `[text](target)` (and reference
 * definition `[id]: target`) in `docs/**\/*.md` must point at a file or folder
 * that exists, and a `#fragment` must name a heading of the target page, with
 * the anchors GitHub generates. Links to other sites, and links inside code,
 * are not checked; `docs/api` is generated and skipped.
 *
 * Run: `npx tsx scripts/check-doc-links.ts` (exit code 1 when a link is broken).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { markdownFiles } from "./markdown-files.js";

/** Where to look. */
export interface LinkCheckOptions {
  /** The repository root. Default: this repository. */
  root?: string;
  /** Folders (relative to the root) whose Markdown pages are checked. Default `["docs"]`. */
  dirs?: readonly string[];
}

/** One link that does not resolve. */
export interface BrokenLink {
  /** The page, relative to the root, with `/`. */
  readonly page: string;
  readonly line: number;
  readonly target: string;
  readonly problem: string;
}

/** What {@link checkDocLinks} found. */
export interface LinkReport {
  /** Relative links looked at. */
  readonly checked: number;
  readonly broken: readonly BrokenLink[];
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// `[text](target "title")`, text with one level of nested brackets; images too.
const INLINE = /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+["'(].*)?$/;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The anchor GitHub gives a heading: lower case, inline code marks and
 * punctuation dropped (letters, digits, `_` and `-` of any script kept), spaces
 * turned into `-`.
 *
 * @example
 * ```ts
 * slug("`ctx.block()` on the way in and out"); // "ctxblock-on-the-way-in-and-out"
 * ```
 */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link in a heading keeps its text
    .replace(/<[^>]+>/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "").replace(/ /g, "-");
}

/** Lines outside fenced code blocks, with inline code blanked out; fenced lines become empty. */
function proseLines(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  let fence: string | undefined;
  return lines.map((line) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (open !== null && (open[1] as string).startsWith(fence) && line.trim() === open[1]) fence = undefined;
      return "";
    }
    if (open !== null) {
      fence = open[1] as string;
      return "";
    }
    // Blank inline code (`…` or ``…``) so that links shown as code are not taken for links.
    return line.replace(/(`+)[\s\S]*?\1/g, (m) => " ".repeat(m.length));
  });
}

/**
 * The anchors of a Markdown page's headings, numbered like GitHub's when a
 * heading text repeats (`usage`, `usage-1`, …).
 *
 * @example
 * ```ts
 * anchorsOf("# Usage\n## Usage\n"); // Set { "usage", "usage-1" }
 * ```
 */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const raw = markdown.split(/\r?\n/);
  const prose = proseLines(markdown);
  prose.forEach((line, i) => {
    if (line === "" && (raw[i] ?? "") !== "") return; // inside a fenced block
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw[i] ?? "");
    if (heading !== null) {
      const base = slug(heading[1] as string);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of (raw[i] ?? "").matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  });
  return anchors;
}

/** One link of a Markdown page: its 1-based line and its target as written. */
export interface MarkdownLink {
  readonly line: number;
  readonly target: string;
}

/**
 * The links of a Markdown page (`[text](target)`, images, reference definitions), outside code blocks and inline
 * code.
 *
 * @example
 * ```ts
 * markdownLinks("See [the guide](../../docs/README.md).\n"); // [{ line: 1, target: "../../docs/README.md" }]
 * ```
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  return proseLines(markdown).flatMap((text, i) => {
    const targets = [...text.matchAll(INLINE)].map((m) => m[1] as string);
    const definition = DEFINITION.exec(text);
    if (definition !== null) targets.push(definition[1] as string);
    return targets.map((target) => ({ line: i + 1, target }));
  });
}

/** True for a link to a path (`../docs/a.md`, `#usage`), false for one with a scheme (`https:`, `mailto:`) or `//host`. */
export function isRelativeLink(target: string): boolean {
  return !EXTERNAL.test(target) && !target.startsWith("//");
}

/**
 * Finds the relative links of the docs that point nowhere.
 *
 * @example
 * ```ts
 * const { broken } = checkDocLinks();
 * for (const b of broken) console.error(`${b.page}:${b.line}: ${b.target}: ${b.problem}`);
 * ```
 */
export function checkDocLinks(options: LinkCheckOptions = {}): LinkReport {
  const root = options.root ?? ROOT;
  const pages = (options.dirs ?? ["docs"]).flatMap((d) => markdownFiles(join(root, d)));
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string): Set<string> => {
    let found = anchorCache.get(file);
    if (found === undefined) {
      found = anchorsOf(readFileSync(file, "utf8"));
      anchorCache.set(file, found);
    }
    return found;
  };
  const broken: BrokenLink[] = [];
  let checked = 0;

  for (const page of pages) {
    const rel = relative(root, page).split(sep).join("/");
    for (const { line, target } of markdownLinks(readFileSync(page, "utf8"))) {
      if (!isRelativeLink(target)) continue;
      checked++;
      const hash = target.indexOf("#");
      const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
      const fragment = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const file = path === "" ? page : resolve(dirname(page), path);
      const report = (problem: string) => broken.push({ page: rel, line, target, problem });
      if (!existsSync(file)) {
        report(`${relative(root, file).split(sep).join("/")} does not exist`);
        continue;
      }
      if (fragment === undefined || fragment === "") continue;
      if (statSync(file).isDirectory() || !file.endsWith(".md")) {
        report("a #fragment on something that is not a Markdown page");
        continue;
      }
      if (!anchors(file).has(fragment)) report(`no heading with the anchor #${fragment}`);
    }
  }
  return { checked, broken };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = checkDocLinks();
  for (const b of report.broken) console.error(`${b.page}:${b.line}: ${b.target}: ${b.problem}`);
  console.log(`${report.checked} relative links checked, ${report.broken.length} broken`);
  if (report.broken.length > 0) process.exitCode = 1;
}
