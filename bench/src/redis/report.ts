import type { SuiteResult, Timing } from "../harness.js";
import { median } from "../harness.js";
import type { Verdict } from "../measures.js";

// The Redis suite's part of the report: its target (a rate-limit decision within 1.5× of the
// bare EVALSHA floor) and its throughput table.

interface Row {
  readonly id: string;
  readonly label: string;
  readonly callers: number;
  readonly perSecond: number;
  /** Median over repetitions of the floor's rate ÷ this flow's rate (absent in older results). */
  readonly xFloor?: number;
}

const suiteOf = (results: readonly SuiteResult[]) => results.find((r) => r.suite === "redis");

function ratioToFloor(r: SuiteResult, id: string): number {
  const t = r.timings.find((x) => x.id === id);
  const floor = r.timings.find((x) => x.id === r.reference) as Timing | undefined;
  if (t === undefined || floor === undefined) return Number.NaN;
  const n = Math.min(t.rounds.length, floor.rounds.length);
  return median(Array.from({ length: n }, (_, i) => (t.rounds[i] as number) / (floor.rounds[i] as number)));
}

/** The Redis target, when the suite ran. */
export function redisVerdicts(results: readonly SuiteResult[]): Verdict[] {
  const r = suiteOf(results);
  if (r === undefined) return [];
  return (["redis-sliding", "redis-bucket"] as const).map((id) => {
    const x = ratioToFloor(r, id);
    return {
      target: `Redis rate-limit decision (${id === "redis-sliding" ? "sliding window" : "token bucket"}) within 1.5× of a bare EVALSHA round trip`,
      measured: `${x.toFixed(2)}×`,
      pass: x <= 1.5,
      note: "wall-clock, one caller, loopback redis-server started by the bench",
    };
  });
}

/** Markdown lines: calls per second by number of concurrent callers, and how far below the floor. */
export function renderRedisThroughput(results: readonly SuiteResult[]): string[] {
  const rows = (suiteOf(results)?.extra?.throughput ?? []) as Row[];
  if (rows.length === 0) return [];
  const lines = ["### redis throughput", "", "| subject | 1 caller | 8 callers | 64 callers |", "|---|---|---|---|"];
  for (const id of [...new Set(rows.map((x) => x.id))]) {
    const of = rows.filter((x) => x.id === id);
    const cell = (n: number) => {
      const row = of.find((x) => x.callers === n);
      if (row === undefined) return "–";
      const x = row.xFloor === undefined || id === "evalsha-floor" ? "" : ` (${row.xFloor.toFixed(2)}× floor)`;
      return `${Math.round(row.perSecond).toLocaleString("en-US")}/s${x}`;
    };
    lines.push(`| ${of[0]?.label ?? id} | ${cell(1)} | ${cell(8)} | ${cell(64)} |`);
  }
  return [...lines, ""];
}
