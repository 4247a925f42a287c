import { measure } from "mitata";

/** One thing to time: `run` makes one call and returns (a promise of) its result. */
export interface Subject {
  readonly id: string;
  readonly label: string;
  /** How many hooks run on each call (0 for references). */
  readonly hooks: number;
  readonly run: () => unknown;
  /** Throws when a result is wrong, so a subject that skips the tool cannot look fast. */
  readonly check: (result: unknown) => void | Promise<void>;
  /**
   * Proves on a separate, instrumented build that every hook runs once per call. Runs after
   * the timing, so the instrumented hooks never share the JIT's feedback with the timed ones.
   */
  readonly verify?: () => Promise<void>;
}

/** A subject's timing: the median over rounds of each round's median ns per call. */
export interface Timing {
  readonly id: string;
  readonly label: string;
  readonly hooks: number;
  readonly ns: number;
  /** Each round's median, in round order. */
  readonly rounds: readonly number[];
}

/** What a suite prints for the driver: one case of a suite, measured in one process. */
export interface SuiteResult {
  readonly suite: string;
  /** Which case of the suite this process measured (see `runCase`). */
  readonly case: string;
  /** The id of the direct-call reference measured in the same process. */
  readonly reference: string;
  readonly timings: readonly Timing[];
  readonly notes: readonly string[];
  readonly extra?: Record<string, unknown>;
}

export interface RoundOptions {
  rounds: number;
  /** CPU time per subject per round. */
  roundMs: number;
}

/** Marks the JSON line the driver reads from a suite's stdout. */
export const RESULT_MARK = "@@BENCH ";

/**
 * Rounds and round length, from the driver's environment (`BENCH_ROUNDS`, `BENCH_ROUND_MS`).
 *
 * @example
 * ```ts
 * const { rounds, roundMs } = roundOptions({ rounds: 10, roundMs: 120 });
 * ```
 */
export function roundOptions(defaults: RoundOptions): RoundOptions {
  const rounds = Number(process.env.BENCH_ROUNDS ?? defaults.rounds);
  const roundMs = Number(process.env.BENCH_ROUND_MS ?? defaults.roundMs);
  return {
    rounds: Number.isInteger(rounds) && rounds > 0 ? rounds : defaults.rounds,
    roundMs: roundMs > 0 ? roundMs : defaults.roundMs,
  };
}

/**
 * The median of a list of numbers.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Checks that a result is the expected string.
 *
 * @example
 * ```ts
 * const check = expectString("q");
 * check("q"); // ok
 * ```
 */
export function expectString(expected: string): (value: unknown) => void {
  return (value) => {
    if (value !== expected) throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(value)}`);
  };
}

// No forced GC before each measurement (BENCH_GC=1 turns it on): a full GC makes V8 drop optimized code that
// embeds objects it collected, and the re-optimization then lands in the samples. Natural GC work counts.
const gc = typeof globalThis.gc === "function" && process.env.BENCH_GC === "1" ? globalThis.gc : undefined;

/**
 * The clock, in ns. Default: this process's CPU time (user + system, all of its
 * threads, so concurrent GC work counts), which other load on the machine does
 * not inflate; `BENCH_CLOCK=wall` uses wall-clock time instead.
 */
export const clock: { readonly kind: "cpu" | "wall"; readonly now: () => number } =
  process.env.BENCH_CLOCK === "wall"
    ? { kind: "wall", now: () => performance.now() * 1e6 }
    : {
        kind: "cpu",
        now: () => {
          const usage = process.cpuUsage();
          return (usage.user + usage.system) * 1e3;
        },
      };

// Calls per sample so that one sample takes about a millisecond (the CPU clock ticks in microseconds).
function batchSize(nsPerCall: number): number {
  const calls = Math.round(1e6 / Math.max(nsPerCall, 1) / 4) * 4;
  return Math.min(16384, Math.max(4, calls));
}

/**
 * Times every subject in interleaved rounds: each round measures each subject
 * once with mitata (rotating who goes first), and a subject's figure is the
 * median of its per-round medians. Every subject is checked and warmed up
 * before the first round, so lazily enabled machinery (AsyncLocalStorage hooks,
 * JIT tiers) is already in place for all of them.
 *
 * @example
 * ```ts
 * const timings = await measureInterleaved([direct, wrapped], { rounds: 10, roundMs: 120 });
 * ```
 */
export async function measureInterleaved(all: readonly Subject[], options: RoundOptions): Promise<Timing[]> {
  // BENCH_ONLY=id,id narrows a suite while investigating; the reference always stays.
  const only = process.env.BENCH_ONLY?.split(",");
  const subjects = only === undefined ? all : all.filter((s, i) => i === 0 || only.includes(s.id));
  const batch = new Map<string, number>();
  for (const s of subjects) {
    await s.check(await s.run());
    const t0 = clock.now();
    let calls = 0;
    while (clock.now() - t0 < 200e6) {
      for (let i = 0; i < 64; i++) await s.run();
      calls += 64;
    }
    batch.set(s.id, batchSize((clock.now() - t0) / calls));
  }
  const rounds = new Map<string, number[]>(subjects.map((s) => [s.id, []]));
  for (let r = 0; r < options.rounds; r++) {
    for (let k = 0; k < subjects.length; k++) {
      const s = subjects[(k + r) % subjects.length] as Subject;
      const stats = await measure(s.run, {
        min_cpu_time: options.roundMs * 1e6,
        min_samples: 8,
        batch_samples: batch.get(s.id) ?? 512,
        now: clock.now,
        gc: gc ?? false,
      });
      rounds.get(s.id)?.push(stats.p50);
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  return subjects.map((s) => {
    const rs = rounds.get(s.id) ?? [];
    return { id: s.id, label: s.label, hooks: s.hooks, ns: median(rs), rounds: rs };
  });
}

/**
 * Prints a suite's result as one marked JSON line on stdout.
 *
 * @example
 * ```ts
 * emit({ suite: "hookable", reference: "direct", timings, notes: [] });
 * ```
 */
export function emit(result: SuiteResult): void {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
}

/** A suite's cases: each builds the subjects one process measures, the direct call first. */
export type Cases = Record<string, () => Subject[] | Promise<Subject[]>>;

/**
 * Measures the case named on the command line (`node suite.js <case>`) and emits its result.
 *
 * @example
 * ```ts
 * await runCase("hookable", { "10": () => [direct, hookable10] }, { rounds: 10, roundMs: 120 }, []);
 * ```
 */
export async function runCase(
  suite: string,
  cases: Cases,
  defaults: RoundOptions,
  notes: readonly string[],
): Promise<void> {
  const name = process.argv[2] ?? "";
  const make = cases[name];
  if (make === undefined) {
    throw new TypeError(
      `${suite}: unknown case ${JSON.stringify(name)} (expected one of: ${Object.keys(cases).join(", ")})`,
    );
  }
  const subjects = await make();
  const timings = await measureInterleaved(subjects, roundOptions(defaults));
  for (const s of subjects) await s.verify?.();
  emit({ suite, case: name, reference: subjects[0]?.id ?? "direct", timings, notes });
}

/**
 * A `verify` that builds an instrumented stack, makes one call and expects `expected` hook runs.
 *
 * @example
 * ```ts
 * const verify = countsHooks((probe) => buildStack(10, probe), 10);
 * ```
 */
export function countsHooks(build: (probe: () => void) => () => unknown, expected: number): () => Promise<void> {
  return async () => {
    let calls = 0;
    await build(() => {
      calls++;
    })();
    if (calls !== expected) throw new Error(`expected ${expected} hooks to run, ${calls} did`);
  };
}
