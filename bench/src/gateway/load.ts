// The gateway suite's load cases: calls per second with 1, 8 and 64 concurrent clients over Streamable HTTP (gateway
// and floor interleaved), and the gateway's heap after GC over 100,000 calls (over stdio).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { emit, median, type RoundOptions } from "../harness.js";
import { echo, httpUpstream, type ProxyProcess, startProxy } from "./procs.js";

export const CALLERS = [1, 8, 64] as const;

/** One row of the throughput table. */
export interface LoadRow {
  readonly mode: ProxyProcess["mode"];
  readonly callers: number;
  /** Median over repetitions of calls per second. */
  readonly perSecond: number;
  /** Over every call of every repetition, in ms. */
  readonly p50: number;
  readonly p99: number;
  /** Median over repetitions of the floor's rate ÷ this one's (the floor itself: 1). */
  readonly xFloor: number;
}

/** One heap sample of the memory case. */
export interface HeapSample {
  readonly calls: number;
  readonly heapUsed: number;
  readonly rss: number;
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

// `clients` each loop calling until `ms` have passed; calls per second in total, and every call's latency.
async function burst(clients: readonly Client[], ms: number, latencies: number[]): Promise<number> {
  const until = performance.now() + ms;
  const t0 = performance.now();
  let calls = 0;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < until) {
        const s = performance.now();
        await echo(client, "hello");
        latencies.push(performance.now() - s);
        calls++;
      }
    }),
  );
  return calls / ((performance.now() - t0) / 1000);
}

async function clientsOf(proxy: ProxyProcess, n: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < n; i++) clients.push(await proxy.client());
  for (const c of clients) for (let i = 0; i < 20; i++) await echo(c, "warm");
  return clients;
}

async function load({ rounds, roundMs }: RoundOptions): Promise<void> {
  const up = await httpUpstream();
  const proxies = [await startProxy("bare", "http", up.url), await startProxy("gateway", "http", up.url)];
  const clients = new Map<ProxyProcess, Client[]>();
  for (const p of proxies) clients.set(p, await clientsOf(p, Math.max(...CALLERS)));
  const reps = Math.max(3, Math.round(rounds / 4));
  const rates = new Map<string, number[]>();
  const latencies = new Map<string, number[]>();
  for (let rep = 0; rep < reps; rep++) {
    for (const callers of CALLERS) {
      for (let k = 0; k < proxies.length; k++) {
        const p = proxies[(k + rep) % proxies.length] as ProxyProcess;
        const key = `${p.mode}:${callers}`;
        const lat = latencies.get(key) ?? [];
        latencies.set(key, lat);
        const rate = await burst((clients.get(p) ?? []).slice(0, callers), roundMs * 2, lat);
        rates.set(key, [...(rates.get(key) ?? []), rate]);
      }
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  for (const p of proxies) await p.close();
  up.stop();
  const rows: LoadRow[] = [];
  for (const p of proxies) {
    for (const callers of CALLERS) {
      const own = rates.get(`${p.mode}:${callers}`) ?? [];
      const floor = rates.get(`bare:${callers}`) ?? [];
      const sorted = Float64Array.from(latencies.get(`${p.mode}:${callers}`) ?? []).sort();
      rows.push({
        mode: p.mode,
        callers,
        perSecond: median(own),
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        xFloor: median(own.map((r, i) => (floor[i] as number) / r)),
      });
    }
  }
  emit({
    suite: "gateway",
    case: "load",
    reference: "bare",
    timings: [],
    notes: [
      `load: that many clients (one MCP session each) looping on \`tools/call\` over Streamable HTTP on loopback, ${reps} repetitions of ${roundMs * 2} ms interleaving the gateway and the floor; median calls per second, latency percentiles over every call.`,
    ],
    extra: { load: rows },
  });
}

// Over stdio (the cheapest transport per call, so 100,000 calls fit in a run on a busy machine): one client keeps 8
// calls in flight. Sessions are fixed, so what grows with calls is per-call state: the session's handler, the guard,
// the policy, the SDK.
async function memory(): Promise<void> {
  process.env.BENCH_PROXY_GC = "1";
  const total = Number(process.env.BENCH_GATEWAY_CALLS ?? 100_000);
  const gateway = await startProxy("gateway", "stdio", "stdio");
  const client = await gateway.client();
  const samples: HeapSample[] = [];
  const step = total / 10;
  const per = Math.ceil(step / 8);
  const batch = () =>
    Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < per; i++) await echo(client, "hello");
      }),
    );
  // One batch of warm-up first: JIT tiers, the SDK's and the policy's caches.
  await batch();
  for (let done = 0; done < total; ) {
    await batch();
    done += per * 8;
    const { heapUsed, rss } = await gateway.stats();
    samples.push({ calls: done, heapUsed, rss });
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  await gateway.close();
  emit({
    suite: "gateway",
    case: "memory",
    reference: "gateway",
    timings: [],
    notes: [
      `memory: the gateway process over stdio (one client, 8 calls in flight) after a warm-up of ${(per * 8).toLocaleString("en-US")} calls; heapUsed and RSS after two forced full GCs every ${(per * 8).toLocaleString("en-US")} calls, up to ${total.toLocaleString("en-US")}.`,
    ],
    extra: { samples },
  });
}

/**
 * Runs the `load` or `memory` case and emits its result.
 *
 * @example
 * ```ts
 * await throughputCase("load", { rounds: 21, roundMs: 250 });
 * ```
 */
export async function throughputCase(which: "load" | "memory", options: RoundOptions): Promise<void> {
  if (which === "load") await load(options);
  else await memory();
}
