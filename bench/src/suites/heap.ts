import { emit } from "../harness.js";
import { toolwareStack } from "../toolware-stack.js";

// 1,000,000 calls through the 10-hook stack of the toolware suite; heapUsed after a full GC every
// 100,000 calls, once warmed up. A leak of one small object per call would show as ~30+ bytes/call.

const gc = globalThis.gc;
if (typeof gc !== "function") throw new Error("run with --expose-gc");

const CALLS = Number(process.env.BENCH_HEAP_CALLS ?? 1_000_000);
const EVERY = CALLS / 10;
const WARMUP = EVERY;
const { call } = toolwareStack({ hooks: 10 });

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

for (let i = 0; i < WARMUP; i++) await call();
const samples: { calls: number; heapUsed: number }[] = [{ calls: 0, heapUsed: heapAfterGc() }];
for (let done = 0; done < CALLS; ) {
  for (let i = 0; i < EVERY; i++) await call();
  done += EVERY;
  samples.push({ calls: done, heapUsed: heapAfterGc() });
}

// Least-squares slope in bytes per call.
const n = samples.length;
const mx = samples.reduce((a, s) => a + s.calls, 0) / n;
const my = samples.reduce((a, s) => a + s.heapUsed, 0) / n;
const slope =
  samples.reduce((a, s) => a + (s.calls - mx) * (s.heapUsed - my), 0) /
  samples.reduce((a, s) => a + (s.calls - mx) ** 2, 0);
const first = samples[0]?.heapUsed ?? 0;
const last = samples[n - 1]?.heapUsed ?? 0;

emit({
  suite: "heap",
  case: "1e6",
  reference: "none",
  timings: [],
  notes: [
    `${CALLS.toLocaleString("en-US")} calls through the mixed 10-hook stack after ${WARMUP.toLocaleString("en-US")} warm-up calls; heapUsed after two forced full GCs every ${EVERY.toLocaleString("en-US")} calls.`,
  ],
  extra: { calls: CALLS, samples, slopeBytesPerCall: slope, growthBytes: last - first },
});
