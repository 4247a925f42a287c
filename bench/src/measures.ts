import type { SuiteResult, Timing } from "./harness.js";
import { median } from "./harness.js";

// Reading figures out of the suites' results: the report's tables and the targets share these.

/** One target of the issue, judged on this run. */
export interface Verdict {
  readonly target: string;
  readonly measured: string;
  readonly pass: boolean;
  readonly note: string;
}

export type Results = readonly SuiteResult[];

export interface Found {
  readonly result: SuiteResult;
  readonly t: Timing;
}

export function timing(result: SuiteResult | undefined, id: string): Timing | undefined {
  return result?.timings.find((t) => t.id === id);
}

/** The first process that measured `id` (and every id of `with`, when given). */
export function locate(results: Results, id: string, ...with_: string[]): Found | undefined {
  for (const result of results) {
    const t = timing(result, id);
    if (t !== undefined && with_.every((w) => timing(result, w) !== undefined)) return { result, t };
  }
  return undefined;
}

/** Median over rounds of f(subject's round, reference's round): pairs each round with its own reference. */
export function paired(a: Timing, b: Timing, f: (x: number, y: number) => number): number {
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

/** `t` as a multiple of its process's reference, paired per round. */
export function ratio(result: SuiteResult, t: Timing): number {
  const ref = timing(result, result.reference);
  return ref === undefined ? Number.NaN : paired(t, ref, (x, y) => x / y);
}

/** Overhead over the direct call of the first process that measured `id`. */
export function overheadOf(results: Results, id: string): number {
  const found = locate(results, id);
  return found === undefined ? Number.NaN : overhead(found.result, found.t);
}

/** `id` as a multiple of `base`, paired per round, in the first process that measured both. */
export function ratioTo(results: Results, id: string, base: string): { ratio: number; found?: Found; base?: Timing } {
  const found = locate(results, id, base);
  if (found === undefined) return { ratio: Number.NaN };
  const b = timing(found.result, base) as Timing;
  return { ratio: paired(found.t, b, (x, y) => x / y), found, base: b };
}

/**
 * Overhead of `id` over the direct call as a share of koa-compose's with 10 middlewares, per round,
 * in the first process that measured all three.
 */
export function shareOfKoa10(results: Results, id: string): number {
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

export const fmt = (ns: number): string =>
  Number.isNaN(ns) ? "–" : ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${Math.round(ns)} ns`;
export const fx = (r: number): string => (Number.isNaN(r) ? "–" : `${r.toFixed(2)}×`);
