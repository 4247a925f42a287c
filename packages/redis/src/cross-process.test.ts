import {
  type AnalyticsSnapshot,
  LATENCY_BUCKET_COUNT,
  latencyBucket,
  nearestRank,
  type ToolStats,
} from "@toolware/packs/analytics";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisAnalyticsStore } from "./index.js";
import { type RedisServer, type RedisTestCluster, runWorkers, startCluster, startRedis } from "./test-utils.js";

let server: RedisServer;
let cluster: RedisTestCluster;

beforeAll(async () => {
  [server, cluster] = await Promise.all([startRedis(), startCluster()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([server?.stop(), cluster?.stop()]);
});

const targets = [
  ["one server", () => [server.port]],
  ["a three-master cluster", () => cluster.nodes.map((n) => n.port)],
] as const;

describe.each(targets)("worker processes sharing %s", (_name, ports) => {
  it("let exactly the limit through in total, with both algorithms", async () => {
    const prefix = `t${Date.now()}:`;
    // 4 processes × 40 concurrent calls against a limit of 50 (both limiters must allow a call).
    const results = (await runWorkers(4, "rate-limit", ports(), prefix, 40, 50)) as { ok: number; runs: number }[];
    const ok = results.reduce((sum, r) => sum + r.ok, 0);
    expect(ok).toBe(50);
    expect(results.reduce((sum, r) => sum + r.runs, 0)).toBe(50);
  }, 60_000);

  it("serve a cache entry written by one process as a hit in another", async () => {
    const prefix = `c${Date.now()}:`;
    const [first] = (await runWorkers(1, "cache", ports(), prefix, 1, 1)) as {
      result: { pid: number };
      runs: number;
    }[];
    expect(first?.runs).toBe(1);
    const others = (await runWorkers(2, "cache", ports(), prefix, 1, 1)) as { result: { pid: number }; runs: number }[];
    for (const other of others) {
      expect(other.runs).toBe(0);
      expect(other.result).toEqual(first?.result);
    }
  }, 60_000);

  it("add their analytics up exactly: counts per tool and agent, and histograms that merge", async () => {
    const prefix = `a${Date.now()}:`;
    const results = (await runWorkers(4, "analytics", ports(), prefix, 60, 0)) as {
      local: AnalyticsSnapshot;
      durations: number[];
    }[];
    const p = ports();
    const reader = p.length > 1 ? new Cluster(p.map((port) => ({ host: "127.0.0.1", port }))) : new Redis(p[0] ?? 0);
    try {
      const shared = await redisAnalyticsStore({ client: reader, prefix }).snapshot();
      const sum = (pick: (s: AnalyticsSnapshot) => ToolStats | undefined, field: keyof Omit<ToolStats, "duration">) =>
        results.reduce((n, r) => n + (pick(r.local)?.[field] ?? 0), 0);
      for (const field of ["count", "ok", "failures", "blocked", "substituted"] as const) {
        expect(shared.totals[field]).toBe(sum((s) => s.totals, field));
        for (const tool of ["search", "fetch"])
          expect(shared.tools[tool]?.[field]).toBe(sum((s) => s.tools[tool], field));
        for (const role of ["writer", "checker"]) {
          expect(shared.agents[role]?.[field]).toBe(sum((s) => s.agents[role], field));
        }
      }
      expect(shared.totals).toMatchObject({ count: 240, ok: 180, failures: 60 });
      const all = results.flatMap((r) => r.durations).sort((a, b) => a - b);
      const buckets = new Array<number>(LATENCY_BUCKET_COUNT).fill(0);
      for (const ms of all) buckets[latencyBucket(ms)] = (buckets[latencyBucket(ms)] ?? 0) + 1;
      const d = shared.totals.duration;
      expect(d?.buckets).toEqual(buckets);
      expect(d?.count).toBe(240);
      expect(Math.abs((d?.totalMs ?? 0) - all.reduce((a, b) => a + b, 0))).toBeLessThan(1e-3);
      expect(Math.abs((d?.minMs ?? 0) - (all[0] ?? 0))).toBeLessThanOrEqual(1e-6);
      expect(Math.abs((d?.maxMs ?? 0) - (all.at(-1) ?? 0))).toBeLessThanOrEqual(1e-6);
      for (const [q, key] of [
        [50, "p50Ms"],
        [95, "p95Ms"],
        [99, "p99Ms"],
      ] as const) {
        const exact = nearestRank(all, q);
        expect(Math.abs((d?.[key] ?? 0) - exact)).toBeLessThanOrEqual(
          Math.max(exact * (2 ** (1 / 8) - 1), 0.001) + 1e-6,
        );
      }
    } finally {
      reader.disconnect();
    }
  }, 60_000);

  it("keep a circuit opened in one process open in the others", async () => {
    const prefix = `b${Date.now()}:`;
    const [opener] = (await runWorkers(1, "circuit", ports(), prefix, 3, 3)) as {
      outcomes: string[];
      state: { state: string };
    }[];
    expect(opener?.outcomes).toEqual(["error", "error", "error"]);
    expect(opener?.state).toMatchObject({ state: "open", failures: 3 });
    const others = (await runWorkers(2, "circuit", ports(), prefix, 2, 3)) as { outcomes: string[]; runs: number }[];
    for (const other of others) {
      expect(other.outcomes).toEqual(["blocked", "blocked"]);
      expect(other.runs).toBe(0);
    }
  }, 60_000);
});
