import type { SuiteResult } from "../harness.js";
import { median } from "../harness.js";
import { fx, paired, type Verdict } from "../measures.js";
import type { HeapSample, LoadRow } from "./load.js";

// The gateway suite's part of the report: its targets (a round trip within 1.15× of the floor's over stdio and over
// Streamable HTTP; the heap flat over the calls) and its throughput and heap tables.

const LIMIT = 1.15;
// A leak of one small object per call is ≥ 30 bytes/call; below 1 byte/call nothing is kept per call.
const HEAP_SLOPE_LIMIT = 1;

const caseOf = (results: readonly SuiteResult[], name: string) =>
  results.find((r) => r.suite === "gateway" && r.case === name);
const ms = (ns: number) => `${(ns / 1e6).toFixed(2)} ms`;
const us = (ns: number) => `${(ns / 1e3).toFixed(0)} µs`;

function roundTrip(results: readonly SuiteResult[], serve: "stdio" | "http"): Verdict | undefined {
  const r = caseOf(results, serve);
  const bare = r?.timings.find((t) => t.id === `bare-${serve}`);
  const gw = r?.timings.find((t) => t.id === `gateway-${serve}`);
  if (r === undefined || bare === undefined || gw === undefined) return undefined;
  const x = paired(gw, bare, (a, b) => a / b);
  const cpu = (r.extra?.proxyCpu ?? []) as { id: string; rounds: number[] }[];
  const cpuOf = (id: string) => cpu.find((c) => c.id === id)?.rounds ?? [];
  const cpuRatio = median(cpuOf(gw.id).map((c, i) => c / (cpuOf(bare.id)[i] as number)));
  return {
    target: `a tools/call round trip through the gateway (50-rule policy) over ${serve === "stdio" ? "stdio" : "Streamable HTTP"}: ≤ ${fx(LIMIT)} a bare pass-through proxy made with the same SDK`,
    measured: `${fx(x)} (${ms(gw.ns)} vs ${ms(bare.ns)})`,
    pass: x <= LIMIT,
    note: `wall-clock, one client each, the two proxies alternating call by call, median of ${gw.rounds.length} per-round ratios; the proxy process's own CPU time per call: ${us(median(cpuOf(gw.id)))} vs ${us(median(cpuOf(bare.id)))} (${fx(cpuRatio)})`,
  };
}

function slope(samples: readonly HeapSample[]): number {
  const n = samples.length;
  const mx = samples.reduce((a, s) => a + s.calls, 0) / n;
  const my = samples.reduce((a, s) => a + s.heapUsed, 0) / n;
  return (
    samples.reduce((a, s) => a + (s.calls - mx) * (s.heapUsed - my), 0) /
    samples.reduce((a, s) => a + (s.calls - mx) ** 2, 0)
  );
}

/** The gateway's targets, for the cases that ran. */
export function gatewayVerdicts(results: readonly SuiteResult[]): Verdict[] {
  const verdicts = [roundTrip(results, "stdio"), roundTrip(results, "http")];
  const samples = (caseOf(results, "memory")?.extra?.samples ?? []) as HeapSample[];
  const first = samples[0];
  const last = samples.at(-1);
  if (first !== undefined && last !== undefined && samples.length > 2) {
    const s = slope(samples);
    verdicts.push({
      target: `the gateway's heap flat over ${last.calls.toLocaleString("en-US")} calls (heap after GC)`,
      measured: `${s.toFixed(3)} bytes/call slope; ${(first.heapUsed / 1024).toFixed(0)} KiB at ${first.calls.toLocaleString("en-US")} calls, ${(last.heapUsed / 1024).toFixed(0)} KiB at ${last.calls.toLocaleString("en-US")}`,
      pass: s < HEAP_SLOPE_LIMIT,
      note: `PASS below ${HEAP_SLOPE_LIMIT} byte/call (least squares over the samples; a leak of one small object per call is ≥ 30 bytes/call); the gateway process over stdio, 8 calls in flight`,
    });
  }
  return verdicts.filter((v): v is Verdict => v !== undefined);
}

/** Markdown lines: the throughput table and the heap samples, when those cases ran. */
export function renderGateway(results: readonly SuiteResult[]): string[] {
  const lines: string[] = [];
  const load = caseOf(results, "load");
  const rows = (load?.extra?.load ?? []) as LoadRow[];
  if (load !== undefined && rows.length > 0) {
    lines.push(
      "### gateway throughput (Streamable HTTP, loopback)",
      "",
      "| proxy | clients | calls/s | p50 | p99 | × floor |",
      "|---|---|---|---|---|---|",
    );
    for (const r of rows) {
      const what = r.mode === "bare" ? "bare pass-through (the floor)" : "toolware gateway, 50-rule policy";
      lines.push(
        `| ${what} | ${r.callers} | ${Math.round(r.perSecond).toLocaleString("en-US")} | ${r.p50.toFixed(2)} ms | ${r.p99.toFixed(2)} ms | ${r.mode === "bare" ? "–" : fx(r.xFloor)} |`,
      );
    }
    lines.push(
      "",
      ...load.notes.map((n) => `- ${n} × floor: the floor's rate ÷ the gateway's, median over repetitions.`),
      "",
    );
  }
  const memory = caseOf(results, "memory");
  const samples = (memory?.extra?.samples ?? []) as HeapSample[];
  if (memory !== undefined && samples.length > 0) {
    lines.push("### gateway memory", "", "| calls after warm-up | heapUsed after GC | RSS |", "|---|---|---|");
    for (const s of samples) {
      lines.push(
        `| ${s.calls.toLocaleString("en-US")} | ${(s.heapUsed / 1024).toFixed(0)} KiB | ${(s.rss / 1048576).toFixed(1)} MiB |`,
      );
    }
    lines.push("", ...memory.notes.map((n) => `- ${n}`), "");
  }
  return lines;
}

/** Lines for the terminal. */
export function gatewayConsole(results: readonly SuiteResult[]): string[] {
  return renderGateway(results).filter(
    (l) => l.startsWith("| ") && !l.startsWith("| proxy") && !l.startsWith("| calls"),
  );
}
