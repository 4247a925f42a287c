// The gateway's cost per tools/call against the floor (a bare pass-through proxy made with the same SDK), over stdio
// and Streamable HTTP; its throughput with 1, 8 and 64 clients; its heap over 100,000 calls. Every proxy is its own
// process in front of its own connection to the same upstream (bench/src/gateway/upstream.ts); the clients are in
// this process. Wall-clock time: a round trip is mostly waiting on pipes and sockets, which CPU time would not count.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { throughputCase } from "../gateway/load.js";
import { echo, httpUpstream, type ProxyProcess, type Stats, startProxy } from "../gateway/procs.js";
import { emit, median, roundOptions, type Timing } from "../harness.js";

const which = process.argv[2] ?? "";
const { rounds, roundMs } = roundOptions({ rounds: 25, roundMs: 400 });

interface Side {
  readonly proxy: ProxyProcess;
  readonly client: Client;
  readonly label: string;
}

// One round: the two proxies' clients take turns call by call (who goes first alternates), so a slow moment of the
// machine lands on both alike; each side's mean round trip, and each proxy's CPU time per call meanwhile.
async function round(sides: readonly Side[]): Promise<{ ns: number; cpuNs: number }[]> {
  const before = await Promise.all(sides.map((s) => s.proxy.stats()));
  const spent = sides.map(() => 0);
  const t0 = performance.now();
  let calls = 0;
  while (performance.now() - t0 < roundMs * sides.length) {
    for (let k = 0; k < sides.length; k++) {
      const at = (k + calls) % sides.length;
      const start = performance.now();
      await echo((sides[at] as Side).client, "hello");
      spent[at] = (spent[at] as number) + performance.now() - start;
    }
    calls++;
  }
  const after = await Promise.all(sides.map((s) => s.proxy.stats()));
  return sides.map((_, i) => ({
    ns: ((spent[i] as number) * 1e6) / calls,
    cpuNs: (((after[i] as Stats).cpuUs - (before[i] as Stats).cpuUs) * 1e3) / calls,
  }));
}

// The check that the policy is on the gateway's path and not on the floor's: rule db-0 denies this call.
async function deniedByPolicy(client: Client): Promise<boolean> {
  const r = (await client.callTool({ name: "db0_drop", arguments: { text: "x", table: "users" } })) as CallToolResult;
  return r.isError === true;
}

async function roundTrip(serve: "stdio" | "http"): Promise<void> {
  const up = serve === "http" ? await httpUpstream() : undefined;
  const spec = up?.url ?? "stdio";
  const sides: Side[] = [];
  for (const mode of ["bare", "gateway"] as const) {
    const proxy = await startProxy(mode, serve, spec);
    const label =
      mode === "bare"
        ? `bare pass-through proxy (the floor), ${serve}`
        : `toolware gateway, 50-rule policy file, ${serve}`;
    sides.push({ proxy, client: await proxy.client(), label });
  }
  const [bare, gateway] = sides as [Side, Side];
  if (await deniedByPolicy(bare.client)) throw new Error("the bare proxy refused a call: it must not run a policy");
  if (!(await deniedByPolicy(gateway.client))) throw new Error("the gateway let through a call its policy denies");
  for (const s of sides) for (let i = 0; i < 300; i++) await echo(s.client, "warm");
  const ns = new Map<Side, number[]>(sides.map((s) => [s, []]));
  const cpu = new Map<Side, number[]>(sides.map((s) => [s, []]));
  for (let r = 0; r < rounds; r++) {
    const measured = await round(sides);
    sides.forEach((side, i) => {
      ns.get(side)?.push(measured[i]?.ns as number);
      cpu.get(side)?.push(measured[i]?.cpuNs as number);
    });
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  for (const s of sides) await s.proxy.close();
  up?.stop();
  const timings: Timing[] = sides.map((s, i) => {
    const rs = ns.get(s) ?? [];
    return { id: `${i === 0 ? "bare" : "gateway"}-${serve}`, label: s.label, hooks: 0, ns: median(rs), rounds: rs };
  });
  emit({
    suite: "gateway",
    case: serve,
    reference: `bare-${serve}`,
    timings,
    notes: [
      "stdio, http: a client of each proxy awaiting one `tools/call` of an echo tool in turn, the two alternating call by call (wall-clock; a round is about twice the round time); the × column is the median of per-round ratios gateway ÷ floor. Each proxy is a child process with its own upstream connection (stdio: a child of the proxy; http: one upstream process on loopback); the gateway is `createGateway` with a watched 50-rule policy file, as `toolware gateway --policy` builds it (its policy is checked to deny a call the floor lets through).",
    ],
    extra: {
      proxyCpu: sides.map((s, i) => ({ id: timings[i]?.id, rounds: cpu.get(s) ?? [] })),
    },
  });
}

if (which === "stdio" || which === "http") await roundTrip(which);
else if (which === "load" || which === "memory") await throughputCase(which, { rounds, roundMs });
else throw new TypeError(`gateway: unknown case ${JSON.stringify(which)} (expected stdio, http, load or memory)`);
