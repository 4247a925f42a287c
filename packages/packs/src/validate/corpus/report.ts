import { pathToFileURL } from "node:url";
import { FAMILIES } from "./families.js";
import { corpusFigures, type Figures, type Tally } from "./figures.js";
import { sources } from "./payloads.js";

// The safe-path corpus figures, as docs/packs/validate.md shows them. Run:
//   npx tsx --conditions @toolware/source packages/packs/src/validate/corpus/report.ts
// The exit code is 1 when an escaping payload is let through or the stored lists are not intact.

const pct = (n: number, of: number): string => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);
const row = (name: string, t: Tally): string =>
  `| ${name} | ${t.payloads} | ${t.escaping} | ${t.refused} (${pct(t.refused, t.escaping)}) | ${t.refusedHarmless} |`;

/**
 * The report as Markdown: one row per encoding family, then the payloads let through (at most 20).
 *
 * @example
 * ```ts
 * console.log(renderReport(corpusFigures()));
 * ```
 */
export function renderReport(figures: Figures): string {
  const src = sources();
  return [
    `safe-path corpus: ${src.repo} @ ${src.commit.slice(0, 12)}, ${src.files.length} lists, ` +
      `${figures.lines} lines, ${figures.all.payloads} distinct payloads`,
    "",
    "| family | payloads | escaping | refused (of escaping) | refused, not escaping |",
    "| --- | --- | --- | --- | --- |",
    ...FAMILIES.map((f) => row(f, figures.byFamily[f])),
    row("all", figures.all),
    "",
    ...figures.problems.map((p) => `corpus problem: ${p}`),
    `let through: ${figures.missed.length}`,
    ...figures.missed.slice(0, 20).map((p) => `  ${p.list}:${p.line}  ${JSON.stringify(p.text)}`),
  ].join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = corpusFigures();
  console.log(renderReport(figures));
  if (figures.missed.length > 0 || figures.problems.length > 0) process.exitCode = 1;
}
