// A worker process for the cross-process tests: it builds its own hooks on a shared Redis,
// says "ready", waits for "go" on stdin, runs its scenario and prints one JSON line.
import { createInterface } from "node:readline";
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { rateLimit } from "@toolware/packs/rate-limit";
import { Cluster, Redis } from "ioredis";
import { redisAnalyticsStore, redisCacheStore, redisCircuitStore, redisRateLimitStore } from "./index.js";

const [scenario = "", nodesArg = "", prefix = "", countArg = "1", limitArg = "1"] = process.argv.slice(2);
const nodes = nodesArg.split(",").map((port) => ({ host: "127.0.0.1", port: Number(port) }));
const client = nodes.length > 1 ? new Cluster(nodes) : new Redis(nodes[0]?.port ?? 0, "127.0.0.1");
client.on("error", () => {});
const count = Number(countArg);
const limit = Number(limitArg);
let runs = 0;

async function main(): Promise<unknown> {
  const hooks = new ToolHooks();
  if (scenario === "rate-limit") {
    hooks.use(rateLimit({ max: limit, per: "1m", key: "global", store: redisRateLimitStore({ client, prefix }) }));
    hooks.use(
      rateLimit({
        max: limit,
        per: "1m",
        key: "global",
        algorithm: "token-bucket",
        keyPrefix: "tb:",
        store: redisRateLimitStore({ client, prefix }),
      }),
    );
    const tool = defineTool({ name: "ping", execute: () => ++runs });
    await go();
    const outcomes = await Promise.all(Array.from({ length: count }, () => hooks.invoke(tool, {})));
    return { ok: outcomes.filter((o) => o.status === "ok").length, runs };
  }
  if (scenario === "cache") {
    hooks.use(cache({ tools: "*", ttl: "1m", store: redisCacheStore({ client, prefix }) }));
    const tool = defineTool({
      name: "lookup",
      execute: (input: { q: string }) => ({ answer: `${input.q}!`, pid: process.pid, run: ++runs }),
    });
    await go();
    const out = await hooks.invoke(tool, { q: "shared" });
    return { result: out.raw, runs, outcome: out.status };
  }
  if (scenario === "circuit") {
    const breaker = circuitBreaker({
      failureThreshold: limit,
      cooldownMs: 60_000,
      store: redisCircuitStore({ client, prefix }),
    });
    hooks.use(breaker);
    const tool = defineTool({
      name: "flaky",
      execute: () => {
        runs++;
        throw new Error("503");
      },
    });
    await go();
    const outcomes = [];
    for (let i = 0; i < count; i++) outcomes.push((await hooks.invoke(tool, {})).status);
    return { outcomes, runs, state: await breaker.state("flaky") };
  }
  if (scenario === "analytics") {
    // A clock only the tool moves, and one call at a time: each call's duration is exactly its `ms`.
    let t = 0;
    const shared = analytics({ store: redisAnalyticsStore({ client, prefix }), now: () => t });
    const local = analytics({ now: () => t });
    hooks.use(shared);
    hooks.use(local);
    const tools = ["search", "fetch"].map((name) =>
      defineTool({
        name,
        execute: ({ ms, fail }: { ms: number; fail: boolean }) => {
          t += ms;
          if (fail) throw new Error("503");
          return ms;
        },
      }),
    );
    const roles = [new Agent({ role: "writer" }), new Agent({ role: "checker" })];
    const durations: number[] = [];
    await go();
    for (let i = 0; i < count; i++) {
      // Durations from 1 µs to about 20 s, different in every process.
      const ms = 10 ** (Math.random() * 7 - 3);
      durations.push(ms);
      const agent = i % 3 === 0 ? undefined : roles[i % 2];
      await hooks.invoke(tools[i % 2] as (typeof tools)[number], { ms, fail: i % 4 === 3 }, { agent });
    }
    // Replies come back in order: once this read is answered, every call above has been counted.
    await shared.stats();
    return { local: local.stats(), durations };
  }
  throw new Error(`unknown scenario ${scenario}`);
}

function go(): Promise<void> {
  process.stdout.write("ready\n");
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.once("line", () => {
      lines.close();
      process.stdin.destroy();
      resolve();
    });
  });
}

main().then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    client.disconnect();
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    client.disconnect();
    process.exitCode = 1;
  },
);
