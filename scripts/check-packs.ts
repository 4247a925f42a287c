/**
 * Checks that @toolware/packs publishes each pack folder, and only those: an explicit export per folder
 * (no `./*` wildcard, nothing under internal/), a docs page docs/packs/<pack>.md and tests beside the code.
 * A pack that imports a Node built-in at load must say so on its page (the line NODE_MARKER), and the core
 * must import none. Run: `npx tsx scripts/check-packs.ts` (exit code 1 on any problem).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { nodeImportsAtLoad } from "./source-imports.js";
import { packFolders, ROOT } from "./workspace.js";

/** What a page of a pack that needs Node carries, word for word. */
export const NODE_MARKER = "> **Needs Node.js.**";

/** The result of {@link checkPacks}. */
export interface PacksReport {
  readonly problems: string[];
  /** Packs that import a Node built-in at load (they say so on their page). */
  readonly nodePacks: string[];
  /** Packs that load in any runtime: what the edge-runtime and browser bundles hold. */
  readonly neutralPacks: string[];
}

function hasTest(dir: string): boolean {
  return readdirSync(dir).some((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? hasTest(path) : entry.endsWith(".test.ts");
  });
}

function exportProblems(root: string, packs: readonly string[]): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "packages/packs/package.json"), "utf8")) as {
    exports?: Record<string, unknown>;
  };
  const exports = manifest.exports ?? {};
  const problems: string[] = [];
  for (const pack of packs) {
    const wanted = {
      "@toolware/source": `./src/${pack}/index.ts`,
      types: `./dist/${pack}/index.d.ts`,
      default: `./dist/${pack}/index.js`,
    };
    const entry = exports[`./${pack}`];
    if (entry === undefined) problems.push(`pack ${pack}: no export "./${pack}" in packages/packs/package.json`);
    else if (JSON.stringify(entry) !== JSON.stringify(wanted)) {
      problems.push(`pack ${pack}: export "./${pack}" must be ${JSON.stringify(wanted)}`);
    }
  }
  for (const [key, value] of Object.entries(exports)) {
    if (key === "./package.json") continue;
    if (key.includes("*")) problems.push(`export "${key}" is a wildcard: list each pack explicitly`);
    else if (/internal/.test(key) || /\/internal\//.test(JSON.stringify(value))) {
      problems.push(`export "${key}" makes internal/ reachable`);
    } else if (!packs.includes(key.slice(2))) problems.push(`export "${key}" has no pack folder`);
  }
  return problems;
}

/**
 * Checks the packs' exports, pages, tests and Node imports, and the core's Node imports.
 *
 * @example
 * ```ts
 * checkPacks().problems; // [] when every pack folder is published, documented and tested
 * ```
 */
export function checkPacks(root = ROOT): PacksReport {
  const packs = packFolders(root);
  const problems = exportProblems(root, packs);
  const nodePacks: string[] = [];
  const neutralPacks: string[] = [];
  for (const pack of packs) {
    const dir = join(root, "packages/packs/src", pack);
    const entry = join(dir, "index.ts");
    const page = join(root, "docs/packs", `${pack}.md`);
    if (!hasTest(dir)) problems.push(`pack ${pack}: no *.test.ts in packages/packs/src/${pack}`);
    if (!existsSync(page)) problems.push(`pack ${pack}: no docs page docs/packs/${pack}.md`);
    if (!existsSync(entry)) {
      problems.push(`pack ${pack}: no index.ts`);
      continue;
    }
    const builtins = nodeImportsAtLoad(entry, root);
    (builtins.length > 0 ? nodePacks : neutralPacks).push(pack);
    if (!existsSync(page)) continue;
    const says = readFileSync(page, "utf8")
      .split("\n")
      .some((line) => line.startsWith(NODE_MARKER));
    if (builtins.length > 0 && !says) {
      const list = builtins.map((b) => `${b.specifier} (${b.file})`).join(", ");
      problems.push(`pack ${pack} imports ${list} at load: docs/packs/${pack}.md must say so ("${NODE_MARKER}")`);
    } else if (builtins.length === 0 && says) {
      problems.push(`pack ${pack} loads in any runtime, but docs/packs/${pack}.md says it needs Node.js`);
    }
  }
  for (const b of nodeImportsAtLoad(join(root, "packages/core/src/index.ts"), root)) {
    problems.push(`@toolware/core imports ${b.specifier} at load (${b.file}): the core must load in any runtime`);
  }
  return { problems, nodePacks, neutralPacks };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const report = checkPacks();
  for (const problem of report.problems) console.error(`✗ ${problem}`);
  console.log(
    `check-packs: ${report.neutralPacks.length + report.nodePacks.length} packs, ` +
      `${report.problems.length} problem(s); any runtime: ${report.neutralPacks.join(", ")}; ` +
      `Node.js only: ${report.nodePacks.join(", ") || "none"}`,
  );
  process.exitCode = report.problems.length > 0 ? 1 : 0;
}
