// The Redis stores' cost per call, against the in-memory stores and against a bare EVALSHA
// round trip to the same server (the floor: one round trip per decision), plus throughput
// with 1, 8 and 64 concurrent callers. It runs on the transpiled sources like the other suites
// (not under tsx), on wall-clock time: a round trip is mostly waiting, which CPU time would not
// count. It starts its own redis-server on a loopback port.
import { defineTool, ToolHooks } from "@toolware/core";
import { cache, memoryCacheStore } from "@toolware/packs/cache";
import { memoryRateLimitStore, type RateLimitRequest, rateLimit } from "@toolware/packs/rate-limit";
import { redisCacheStore, redisRateLimitStore } from "@toolware/redis";
import { Redis } from "ioredis";
// The same throwaway-server helper the tests use (not part of the published package).
import { startRedis } from "../../../packages/redis/src/test-utils.js";
import { emit, median, roundOptions, type Timing } from "../harness.js";

interface Subject {
  readonly id: string;
  readonly label: string;
  readonly run: () => unknown;
}

const { rounds, roundMs } = roundOptions({ rounds: 7, roundMs: 150 });
const server = await startRedis();
const client = new Redis(server.port, "127.0.0.1");
const FLOOR = "return {1, 0, 0}";
const floorSha = (await client.script("LOAD", FLOOR)) as string;

const window: RateLimitRequest = { algorithm: "sliding-window", max: 1e9, windowMs: 1000, now: 0 };
const bucket: RateLimitRequest = { ...window, algorithm: "token-bucket" };
const redisLimits = redisRateLimitStore({ client, prefix: "bench:" });
const memoryLimits = memoryRateLimitStore();
const redisCache = redisCacheStore({ client, prefix: "bench:" });
const memoryCache = memoryCacheStore();
const entry = { value: { hits: ["a", "b"] }, expiresAt: Date.now() + 3_600_000 };
await redisCache.set("search\u0000{}", entry);
memoryCache.set("search\u0000{}", entry);

const tool = defineTool({ name: "search", execute: (input: { q: string }) => input.q });
const limited = (store: typeof redisLimits | typeof memoryLimits) => {
  const hooks = new ToolHooks();
  hooks.use(rateLimit({ max: 1e9, per: "1s", store }));
  return () => hooks.invoke(tool, { q: "x" });
};
const cached = (store: typeof redisCache | typeof memoryCache) => {
  const hooks = new ToolHooks();
  hooks.use(cache({ tools: "*", ttl: "1h", store, dedupe: false }));
  return () => hooks.invoke(tool, { q: "x" });
};

const subjects: Subject[] = [
  {
    id: "evalsha-floor",
    label: "bare EVALSHA round trip (the floor)",
    run: () => client.evalsha(floorSha, 1, "bench:floor"),
  },
  {
    id: "redis-sliding",
    label: "redisRateLimitStore.hit, sliding window",
    run: () => redisLimits.hit("k", { ...window, now: Date.now() }),
  },
  {
    id: "redis-bucket",
    label: "redisRateLimitStore.hit, token bucket",
    run: () => redisLimits.hit("k", { ...bucket, now: Date.now() }),
  },
  {
    id: "memory-sliding",
    label: "memoryRateLimitStore.hit, sliding window",
    run: () => memoryLimits.hit("k", { ...window, now: Date.now() }),
  },
  { id: "redis-cache-get", label: "redisCacheStore.get (hit)", run: () => redisCache.get("search\u0000{}", 0) },
  { id: "memory-cache-get", label: "memoryCacheStore.get (hit)", run: () => memoryCache.get("search\u0000{}", 0) },
  { id: "invoke-redis-limit", label: "invoke through rateLimit, Redis store", run: limited(redisLimits) },
  { id: "invoke-memory-limit", label: "invoke through rateLimit, memory store", run: limited(memoryLimits) },
  { id: "invoke-redis-cache", label: "invoke answered by cache, Redis store", run: cached(redisCache) },
  { id: "invoke-memory-cache", label: "invoke answered by cache, memory store", run: cached(memoryCache) },
];

// Sequential calls for `roundMs` of wall time: the latency one caller sees.
async function nsPerCall(s: Subject): Promise<number> {
  const t0 = performance.now();
  let calls = 0;
  while (performance.now() - t0 < roundMs) {
    for (let i = 0; i < 16; i++) await s.run();
    calls += 16;
  }
  return ((performance.now() - t0) * 1e6) / calls;
}

// `callers` loops calling as fast as they can for `ms`: calls per second in total.
async function throughput(s: Subject, callers: number, ms: number): Promise<number> {
  let calls = 0;
  const until = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        await s.run();
        calls++;
      }
    }),
  );
  return calls / ((performance.now() - t0) / 1000);
}

for (const s of subjects) for (let i = 0; i < 500; i++) await s.run();
const perRound = new Map<string, number[]>(subjects.map((s) => [s.id, []]));
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < subjects.length; k++) {
    const s = subjects[(k + r) % subjects.length] as Subject;
    perRound.get(s.id)?.push(await nsPerCall(s));
  }
  process.stderr.write(".");
}
process.stderr.write("\n");
const timings: Timing[] = subjects.map((s) => {
  const rs = perRound.get(s.id) ?? [];
  return { id: s.id, label: s.label, hooks: 0, ns: median(rs), rounds: rs };
});

// Throughput is measured in repetitions that interleave the flows (the floor first in each), so a
// busy phase of the machine hits a flow and its floor alike; each figure is the median over the
// repetitions, and "× floor" the median of the floor's rate over the flow's in the same repetition.
const flows = ["evalsha-floor", "redis-sliding", "invoke-redis-limit", "invoke-memory-limit"];
const reps = Math.max(3, Math.round(rounds / 2));
const rates = new Map<string, number[]>();
for (let rep = 0; rep < reps; rep++) {
  for (const callers of [1, 8, 64]) {
    for (const id of flows) {
      const s = subjects.find((x) => x.id === id) as Subject;
      const key = `${id}:${callers}`;
      rates.set(key, [...(rates.get(key) ?? []), await throughput(s, callers, Math.max(roundMs * 2, 100))]);
    }
  }
}
const rows: { id: string; label: string; callers: number; perSecond: number; xFloor: number }[] = [];
for (const id of flows) {
  const label = (subjects.find((x) => x.id === id) as Subject).label;
  for (const callers of [1, 8, 64]) {
    const own = rates.get(`${id}:${callers}`) ?? [];
    const floor = rates.get(`evalsha-floor:${callers}`) ?? [];
    const xFloor = median(own.map((r, i) => (floor[i] as number) / r));
    rows.push({ id, label, callers, perSecond: median(own), xFloor });
  }
}

client.disconnect();
await server.stop();
emit({
  suite: "redis",
  case: "stores",
  reference: "evalsha-floor",
  timings,
  notes: [
    "Wall-clock time per call, one caller awaiting each call in turn, on a redis-server on loopback started by the bench; the × column is against the bare EVALSHA round trip of the same round.",
    `Throughput: that many callers looping concurrently in one process, in ${reps} repetitions interleaving the flows; median calls per second, and the median of floor ÷ flow in the same repetition (× floor: how many times slower than the floor).`,
  ],
  extra: { throughput: rows },
});
