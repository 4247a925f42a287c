import { FAMILIES } from "./families.js";
import { corpusFigures, type Tally } from "./figures.js";
import { sources } from "./payloads.js";

// Prints the safe-path corpus figures: `npx tsx packages/packs/src/validate/corpus/report.ts`.
// Exit code 1 when an escaping payload is let through.

const pct = (n: number, of: number): string => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}%`);
const row = (name: string, t: Tally): string =>
  `| ${name} | ${t.payloads} | ${t.escaping} | ${t.refused} (${pct(t.refused, t.escaping)}) | ${t.refusedHarmless} |`;

const src = sources();
const figures = corpusFigures();
const lines = [
  `safe-path corpus: ${src.repo} @ ${src.commit.slice(0, 12)}, ${src.files.length} lists, ${figures.lines} lines, ${figures.all.payloads} distinct payloads`,
  "",
  "| family | payloads | escaping | refused (of escaping) | refused, not escaping |",
  "| --- | --- | --- | --- | --- |",
  ...FAMILIES.map((f) => row(f, figures.byFamily[f])),
  row("all", figures.all),
  "",
  `let through: ${figures.missed.length}`,
  ...figures.missed.slice(0, 20).map((p) => `  ${p.list}:${p.line}  ${JSON.stringify(p.text)}`),
];
console.log(lines.join("\n"));
if (figures.missed.length > 0) process.exitCode = 1;
