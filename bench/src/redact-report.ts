import type { SuiteResult, Timing } from "./harness.js";
import { median } from "./harness.js";
import type { Verdict } from "./measures.js";

// The redact suite's part of the report: its throughput against the naive alternation on ordinary
// 1 MiB results (the target: at least 0.75× of it), and its MB/s on adversarial input.

const TARGET = 0.75;

type Results = readonly SuiteResult[];

interface Ratio {
  readonly input: string;
  /** Median over rounds of naive time / redact time: redact's throughput as a multiple of the naive one's. */
  readonly ratio: number;
  readonly redactMbps: number;
  readonly naiveMbps: number;
}

const mbps = (bytes: number, ns: number): number => (bytes / ns) * 1e3;
const fmtMbps = (x: number): string =>
  Number.isFinite(x) ? `${x >= 100 ? Math.round(x) : x >= 1 ? x.toFixed(1) : x.toPrecision(2)} MB/s` : "–";

function caseOf(results: Results, which: string): SuiteResult | undefined {
  return results.find((r) => r.suite === "redact" && r.case === which);
}

function ratioOf(results: Results, input: string): Ratio | undefined {
  const r = caseOf(results, input);
  const naive = r?.timings.find((t) => t.id === `naive-${input}`);
  const redact = r?.timings.find((t) => t.id === `redact-${input}`);
  if (r === undefined || naive === undefined || redact === undefined) return undefined;
  const n = Math.min(naive.rounds.length, redact.rounds.length);
  const perRound: number[] = [];
  for (let i = 0; i < n; i++) perRound.push((naive.rounds[i] as number) / (redact.rounds[i] as number));
  const bytes = r.extra?.inputBytes as number;
  return { input, ratio: median(perRound), redactMbps: mbps(bytes, redact.ns), naiveMbps: mbps(bytes, naive.ns) };
}

interface Adversarial {
  readonly input: string;
  readonly redactMbps: number;
  readonly naive: { mbps: number; growth: number } | undefined;
}

function adversarial(results: Results): Adversarial[] {
  const r = caseOf(results, "adversarial");
  if (r === undefined) return [];
  const bytes = r.extra?.inputBytes as number;
  const naive = (r.extra?.naive ?? {}) as Record<string, { mbps: number; growth: number }>;
  return r.timings
    .filter((t: Timing) => t.id !== r.reference)
    .map((t) => {
      const input = t.label.replace(/^redactText, 1 MiB /, "");
      return { input, redactMbps: mbps(bytes, t.ns), naive: naive[input] };
    });
}

/**
 * The redact target judged on this run, when the suite ran.
 *
 * @example
 * ```ts
 * const v = redactVerdict(results); // { target: "redact ≥ 0.75× …", pass: true, … }
 * ```
 */
export function redactVerdict(results: Results): Verdict | undefined {
  const ratios = ["html", "json"].map((i) => ratioOf(results, i)).filter((r): r is Ratio => r !== undefined);
  if (ratios.length === 0) return undefined;
  const worst = Math.min(...ratios.map((r) => r.ratio));
  const adv = adversarial(results);
  const slowest = adv.reduce<Adversarial | undefined>(
    (a, b) => (a === undefined || b.redactMbps < a.redactMbps ? b : a),
    undefined,
  );
  return {
    target: `redact ≥ ${TARGET}× the throughput of the naive alternation on 1 MiB HTML/JSON`,
    measured: ratios
      .map((r) => `${r.input} ${r.ratio.toFixed(2)}× (${fmtMbps(r.redactMbps)} vs ${fmtMbps(r.naiveMbps)})`)
      .join(", "),
    pass: ratios.length === 2 && worst >= TARGET,
    note:
      `PASS when both inputs reach ${TARGET}×; the ratio is the median over rounds of naive time / redact time in the same process` +
      (slowest === undefined
        ? ""
        : `. Adversarial 1 MiB inputs: slowest ${fmtMbps(slowest.redactMbps)} (${slowest.input}); the naive alternation is quadratic there (see the redact section)`),
  };
}

/**
 * The redact section of results.md (empty when the suite did not run).
 *
 * @example
 * ```ts
 * lines.push(...redactSection(results));
 * ```
 */
export function redactSection(results: Results): string[] {
  const ratios = ["html", "json"].map((i) => ratioOf(results, i)).filter((r): r is Ratio => r !== undefined);
  const adv = adversarial(results);
  if (ratios.length === 0 && adv.length === 0) return [];
  const lines = ["## redact throughput", ""];
  if (ratios.length > 0) {
    lines.push("| 1 MiB input | redactText | naive alternation | redact ÷ naive (throughput) |", "|---|---|---|---|");
    for (const r of ratios) {
      lines.push(`| ${r.input} | ${fmtMbps(r.redactMbps)} | ${fmtMbps(r.naiveMbps)} | ${r.ratio.toFixed(2)}× |`);
    }
    lines.push("");
  }
  if (adv.length > 0) {
    const cap = (caseOf(results, "adversarial")?.extra?.naiveCapBytes as number) / 1024;
    lines.push(
      `| adversarial input | redactText at 1 MiB | naive alternation at ${cap} KiB | naive: time × when the input doubles |`,
      "|---|---|---|---|",
    );
    for (const a of adv) {
      const growth = a.naive === undefined ? "–" : `${a.naive.growth.toFixed(1)}×`;
      lines.push(
        `| ${a.input} | ${fmtMbps(a.redactMbps)} | ${a.naive === undefined ? "–" : fmtMbps(a.naive.mbps)} | ${growth} |`,
      );
    }
    lines.push(
      "",
      "The naive alternation is not run at 1 MiB on adversarial input: where its time grows about 4× when the input doubles it is quadratic, and 1 MiB would take minutes. redact's linearity is pinned in its unit tests (CPU time for 4n against n).",
      "",
    );
  }
  const notes = results.find((r) => r.suite === "redact")?.notes ?? [];
  if (notes.length > 0) lines.push(...notes.map((n) => `- ${n}`), "");
  return lines;
}

/**
 * The redact figures for the terminal.
 *
 * @example
 * ```ts
 * rows.push(...redactConsole(results));
 * ```
 */
export function redactConsole(results: Results): string[] {
  const ratios = ["html", "json"].map((i) => ratioOf(results, i)).filter((r): r is Ratio => r !== undefined);
  const adv = adversarial(results);
  if (ratios.length === 0 && adv.length === 0) return [];
  const rows = [""];
  for (const r of ratios) {
    rows.push(
      `redact ${r.input}: ${fmtMbps(r.redactMbps)}, naive alternation ${fmtMbps(r.naiveMbps)}: ${r.ratio.toFixed(2)}× its throughput`,
    );
  }
  const cap = (caseOf(results, "adversarial")?.extra?.naiveCapBytes as number) / 1024;
  for (const a of adv) {
    const naive =
      a.naive === undefined
        ? ""
        : ` (naive: ${fmtMbps(a.naive.mbps)} at ${cap} KiB, ×${a.naive.growth.toFixed(1)} per doubling)`;
    rows.push(`redact adversarial ${a.input}: ${fmtMbps(a.redactMbps)}${naive}`);
  }
  return rows;
}
