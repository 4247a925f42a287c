import type { SuiteResult, Timing } from "./harness.js";
import { median } from "./harness.js";
import { redactConsole, redactSection, redactVerdict } from "./redact-report.js";
import { redisVerdicts, renderRedisThroughput } from "./redis/report.js";

/** One target of the issue, judged on this run. */
export interface Verdict {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean;
  readonly note: string;
}

/** Facts about the run printed above the tables. */
export interface RunInfo {
  readonly date: string;
  readonly node: string;
  readonly cpu: string;
  readonly cores: number;
  readonly clock: string;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly core: string;
  readonly seconds: number;
}

type Results = readonly SuiteResult[];

interface Found {
  readonly result: SuiteResult;
  readonly t: Timing;
}

function timing(result: SuiteResult | undefined, id: string): Timing | undefined {
  return result?.timings.find((t) => t.id === id);
}

/** The first process that measured `id` (and every id of `with`, when given). */
function locate(results: Results, id: string, ...with_: string[]): Found | undefined {
  for (const result of results) {
    const t = timing(result, id);
    if (t !== undefined && with_.every((w) => timing(result, w) !== undefined)) return { result, t };
  }
  return undefined;
}

/** Median over rounds of f(subject's round, reference's round): pairs each round with its own reference. */
function paired(a: Timing, b: Timing, f: (x: number, y: number) => number): number {
  const n = Math.min(a.rounds.length, b.rounds.length);
  const values: number[] = [];
  for (let i = 0; i < n; i++) values.push(f(a.rounds[i] as number, b.rounds[i] as number));
  return median(values);
}

/** Overhead of `t` over the direct call of its own process, paired per round. */
export function overhead(result: SuiteResult, t: Timing): number {
  const ref = timing(result, result.reference);
  return ref === undefined ? Number.NaN : paired(t, ref, (x, y) => x - y);
}

function ratio(result: SuiteResult, t: Timing): number {
  const ref = timing(result, result.reference);
  return ref === undefined ? Number.NaN : paired(t, ref, (x, y) => x / y);
}

/** Overhead over the direct call of the first process that measured `id`. */
function overheadOf(results: Results, id: string): number {
  const found = locate(results, id);
  return found === undefined ? Number.NaN : overhead(found.result, found.t);
}

/**
 * Overhead of `id` over the direct call as a share of koa-compose's with 10 middlewares, per round,
 * in the first process that measured all three.
 */
function shareOfKoa10(results: Results, id: string): number {
  const found = locate(results, id, "koa-10", "direct");
  if (found === undefined) return Number.NaN;
  const direct = timing(found.result, "direct") as Timing;
  const k10 = timing(found.result, "koa-10") as Timing;
  return median(
    found.t.rounds.map((x, i) => {
      const d = direct.rounds[i] as number;
      return (x - d) / ((k10.rounds[i] as number) - d);
    }),
  );
}

const fmt = (ns: number): string =>
  Number.isNaN(ns) ? "–" : ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${Math.round(ns)} ns`;
const fx = (r: number): string => (Number.isNaN(r) ? "–" : `${r.toFixed(2)}×`);

// Spread of a subject's per-round medians: (p75 - p25) / median, as a percentage.
function spread(t: Timing): string {
  const s = [...t.rounds].sort((a, b) => a - b);
  if (s.length < 4) return "–";
  const q = (p: number) => s[Math.floor(p * (s.length - 1))] as number;
  return `±${Math.round((50 * (q(0.75) - q(0.25))) / t.ns)}%`;
}

/**
 * Judges the issue's targets on one run.
 *
 * @example
 * ```ts
 * const verdicts = judge(suites);
 * ```
 */
export function judge(results: Results): Verdict[] {
  const verdicts: Verdict[] = [];
  const zero = locate(results, "toolware-0", "direct", "floor-then");
  if (zero !== undefined) {
    const direct = timing(zero.result, "direct") as Timing;
    const floor = timing(zero.result, "floor-then") as Timing;
    const r = paired(zero.t, direct, (x, y) => x / y);
    verdicts.push({
      target: "0 hooks within 1.15× of the direct call",
      measured: `${fx(r)} (${fmt(zero.t.ns)} vs ${fmt(direct.ns)})`,
      pass: r <= 1.15,
      note: `a bare \`tool(input).then(format)\` is already ${fx(paired(floor, direct, (x, y) => x / y))}: any wrapper that post-processes an async result pays one promise reaction`,
    });
  }
  const ten = locate(results, "toolware-10", "koa-10", "direct");
  if (ten !== undefined) {
    const k10 = timing(ten.result, "koa-10") as Timing;
    const share = shareOfKoa10(results, "toolware-10");
    const koa = overhead(ten.result, k10);
    verdicts.push({
      target: "10 hooks: overhead ≤ ½ of koa-compose's with 10 middlewares",
      measured: `${fx(share)} of koa's (${fmt(overhead(ten.result, ten.t))} vs ${fmt(koa)})`,
      pass: share <= 0.5,
      note: `mixed stack (4 before, 3 after, 3 middleware). Other mixes, against koa-compose's 10 in their own process: 10 sync hooks ${fx(shareOfKoa10(results, "toolware-10-sync"))}, 5 before + 4 after + 1 middleware ${fx(shareOfKoa10(results, "toolware-10-one-mw"))}, 10 middlewares ${fx(shareOfKoa10(results, "toolware-10-mw"))}`,
    });
  }
  const o1 = overheadOf(results, "toolware-1");
  const o10 = overheadOf(results, "toolware-10");
  const o50 = overheadOf(results, "toolware-50");
  if (!Number.isNaN(o1 + o10 + o50)) {
    const m1 = (o10 - o1) / 9;
    const m2 = (o50 - o10) / 40;
    verdicts.push({
      target: "overhead linear in matching hooks",
      measured: `${fmt(m1)}/hook from 1→10, ${fmt(m2)}/hook from 10→50`,
      pass: m2 <= 1.25 * m1,
      note: "PASS when the marginal cost per hook from 10 to 50 is at most 1.25× the one from 1 to 10 (same kind mix)",
    });
  }
  const plus = locate(results, "toolware-10-plus-1000", "toolware-10");
  if (plus !== undefined) {
    const r = paired(plus.t, timing(plus.result, "toolware-10") as Timing, (x, y) => x / y);
    verdicts.push({
      target: "1,000 non-matching hooks cost nothing",
      measured: `${fx(r)} of the same 10-hook stack without them`,
      pass: r <= 1.05,
      note: "PASS within 5% (run-to-run noise); chains are compiled per (tool, agent, crew) and cached",
    });
  }
  const heap = results.find((r) => r.suite === "heap");
  if (heap?.extra !== undefined) {
    const slope = heap.extra.slopeBytesPerCall as number;
    const growth = heap.extra.growthBytes as number;
    verdicts.push({
      target: `heap flat over ${(heap.extra.calls as number).toLocaleString("en-US")} calls (10 hooks)`,
      measured: `${slope.toFixed(3)} bytes/call slope, ${(growth / 1024).toFixed(0)} KiB from first to last sample`,
      pass: slope < 0.1,
      note: "PASS below 0.1 byte/call of growth (a leak of one small object per call is ≥ 30 bytes/call)",
    });
  }
  const redact = redactVerdict(results);
  if (redact !== undefined) verdicts.push(redact);
  return verdicts;
}

function peerRow(label: string, results: Results, ids: readonly string[]): string {
  return `| ${label} | ${ids.map((id) => fmt(overheadOf(results, id))).join(" | ")} |`;
}

/**
 * Renders the run as Markdown: run facts, targets, peers side by side, every subject.
 *
 * @example
 * ```ts
 * writeFileSync("results.md", render(info, results));
 * ```
 */
export function render(info: RunInfo, results: Results): string {
  const lines: string[] = [];
  lines.push("# Benchmark results", "");
  lines.push(
    `Generated by \`pnpm bench\` on ${info.date} UTC in ${Math.round(info.seconds)} s: Node ${info.node}, ${info.cpu} (${info.cores} cores), core under test: \`${info.core}\`.`,
    `Clock: ${info.clock}. Load average before/after the run: ${info.loadBefore.map((l) => l.toFixed(2)).join(" ")} / ${info.loadAfter.map((l) => l.toFixed(2)).join(" ")}.`,
    "",
    "Every case runs in its own process beside its own direct-call reference (`await tool(input)`); figures are medians over",
    "interleaved rounds, and overheads and ratios are medians of per-round differences and ratios against the reference of",
    "the same round. `bench/README.md` says how to read this; `docs/performance.md` what the numbers mean.",
    "",
  );

  lines.push("## Targets", "", "| target | measured | verdict | note |", "|---|---|---|---|");
  for (const v of [...judge(results), ...redisVerdicts(results)]) {
    lines.push(`| ${v.target} | ${v.measured} | ${v.pass ? "PASS" : "**MISS**"} | ${v.note} |`);
  }
  lines.push("");

  lines.push(
    "## Overhead over the direct call, side by side",
    "",
    "ns per call minus the direct call of the same process.",
    "",
    "| hooks → | 1 | 10 | 50 |",
    "|---|---|---|---|",
    peerRow("toolware (before/after/middleware mixed, 3 layers, filters)", results, [
      "toolware-1",
      "toolware-10",
      "toolware-50",
    ]),
    peerRow("koa-compose (async pass-through middlewares)", results, ["koa-1", "koa-10", "koa-50"]),
    peerRow("hookable (before + after hooks)", results, ["hookable-1", "hookable-10", "hookable-50"]),
    peerRow("OpenAI Agents (input + output tool guardrails)", results, [
      "openai-agents-1",
      "openai-agents-10",
      "openai-agents-50",
    ]),
    peerRow("LangChain ToolNode (wrapToolCall)", results, [
      "langchain-node-1",
      "langchain-node-10",
      "langchain-node-50",
    ]),
    peerRow("LangChain createAgent loop (wrapToolCall)", results, [
      "langchain-agent-1",
      "langchain-agent-10",
      "langchain-agent-50",
    ]),
    "",
    "The same with 0 hooks, i.e. what each path costs before any hook: " +
      [
        ["toolware", "toolware-0"],
        ["koa-compose", "koa-0"],
        ["OpenAI Agents", "openai-agents-0"],
        ["LangChain ToolNode", "langchain-node-0"],
        ["LangChain createAgent", "langchain-agent-0"],
      ]
        .map(([label, id]) => `${label} ${fmt(overheadOf(results, id as string))}`)
        .join(", ") +
      ".",
    "",
  );

  const kinds = locate(results, "toolware-10-sync", "toolware-10-mw", "toolware-0", "koa-10-isolated");
  const timed = locate(results, "toolware-10-timing", "toolware-10");
  const perHook = (found: Found | undefined, id: string, base: string, n: number): number => {
    const a = timing(found?.result, id);
    const b = timing(found?.result, base);
    return a === undefined || b === undefined ? Number.NaN : paired(a, b, (x, y) => x - y) / n;
  };
  lines.push(
    "## Cost per hook",
    "",
    "| what | ns |",
    "|---|---|",
    `| one sync before/after hook: (10 sync hooks − 0 hooks) / 10 | ${fmt(perHook(kinds, "toolware-10-sync", "toolware-0", 10))} |`,
    `| one toolware middleware: (10 middlewares − 0 hooks) / 10 | ${fmt(perHook(kinds, "toolware-10-mw", "toolware-0", 10))} |`,
    `| one middleware instead of a sync hook among 10 (the chain moves onto koa-compose): 1 middleware + 9 sync − 10 sync | ${fmt(perHook(kinds, "toolware-10-one-mw", "toolware-10-sync", 1))} |`,
    `| one koa-compose middleware: (koa 10 − koa 0) / 10 | ${fmt(perHook(kinds, "koa-10", "koa-0", 10))} |`,
    `| one koa-compose middleware in a try/await boundary: (isolated koa 10 − koa 0) / 10 | ${fmt(perHook(kinds, "koa-10-isolated", "koa-0", 10))} |`,
    `| \`timing: true\` on the mixed 10-hook stack, per hook | ${fmt(perHook(timed, "toolware-10-timing", "toolware-10", 10))} |`,
    "",
  );

  lines.push(...redactSection(results));

  lines.push("## Every subject", "");
  // redact's figures are throughput, shown in their own section above.
  for (const suite of [...new Set(results.filter((r) => r.suite !== "redact").map((r) => r.suite))]) {
    const cases = results.filter((r) => r.suite === suite && r.timings.length > 0);
    if (cases.length === 0) continue;
    lines.push(
      `### ${suite}`,
      "",
      "| case | subject | ns/call | overhead | × direct | spread |",
      "|---|---|---|---|---|---|",
    );
    for (const r of cases) {
      for (const t of r.timings) {
        const isRef = t.id === r.reference;
        lines.push(
          `| ${r.case} | ${t.label} | ${fmt(t.ns)} | ${isRef ? "–" : fmt(overhead(r, t))} | ${isRef ? "1.00×" : fx(ratio(r, t))} | ${spread(t)} |`,
        );
      }
    }
    // Cases of a suite mostly share their notes; those of one case alone (its own figures) are kept too.
    lines.push("", ...[...new Set(cases.flatMap((r) => r.notes))].map((n) => `- ${n}`), "");
  }

  const heap = results.find((r) => r.suite === "heap");
  if (heap?.extra !== undefined) {
    const samples = heap.extra.samples as { calls: number; heapUsed: number }[];
    lines.push("### heap", "", "| calls after warm-up | heapUsed after GC |", "|---|---|");
    for (const x of samples)
      lines.push(`| ${x.calls.toLocaleString("en-US")} | ${(x.heapUsed / 1024).toFixed(0)} KiB |`);
    lines.push("", ...heap.notes.map((n) => `- ${n}`), "");
  }
  lines.push(...renderRedisThroughput(results));
  return `${lines.join("\n")}\n`;
}

/**
 * A compact plain-text table for the terminal.
 *
 * @example
 * ```ts
 * console.log(renderConsole(results));
 * ```
 */
export function renderConsole(results: Results): string {
  const rows: string[] = [];
  rows.push(
    `${"suite:case".padEnd(20)} ${"subject".padEnd(62)} ${"ns/call".padStart(10)} ${"overhead".padStart(10)} ${"×direct".padStart(8)}`,
  );
  for (const r of results.filter((x) => x.suite !== "redact")) {
    for (const t of r.timings) {
      const isRef = t.id === r.reference;
      rows.push(
        `${`${r.suite}:${r.case}`.padEnd(20)} ${t.label.slice(0, 62).padEnd(62)} ${fmt(t.ns).padStart(10)} ${(isRef ? "–" : fmt(overhead(r, t))).padStart(10)} ${(isRef ? "1.00×" : fx(ratio(r, t))).padStart(8)}`,
      );
    }
  }
  const heap = results.find((r) => r.suite === "heap");
  if (heap?.extra !== undefined) {
    const samples = heap.extra.samples as { heapUsed: number }[];
    rows.push(
      "",
      `heap after GC every 100k calls (KiB): ${samples.map((x) => Math.round(x.heapUsed / 1024)).join(" ")}`,
    );
  }
  rows.push(...redactConsole(results), "");
  rows.push(...renderRedisThroughput(results).filter((l) => l.startsWith("| ") && !l.startsWith("| subject")));
  for (const v of [...judge(results), ...redisVerdicts(results)])
    rows.push(`${v.pass ? "PASS" : "MISS"}  ${v.target}: ${v.measured}`);
  return rows.join("\n");
}
