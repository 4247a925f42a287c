import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
