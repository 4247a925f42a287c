// From the decision to the waiting call's tool starting: an agent's inbox blocks a call in the
// approval pack ("wait"), another inbox on the same store (the approver's side, as the web server
// would be) decides it, and the tool records when it starts. Wall-clock, loopback, the default
// poll interval (the two inboxes share nothing but the store, as two processes would).
// Run: npx tsx --conditions @toolware/source bench/src/inbox/latency.ts [iterations]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { Redis } from "ioredis";
import {
  createInbox,
  createSigner,
  type InboxRequest,
  type InboxStore,
  inboxApproval,
  redisInboxStore,
  sqliteInboxStore,
} from "../../../packages/inbox/src/index.js";
import { startRedis } from "../../../packages/redis/src/test-utils.js";

const iterations = Number(process.argv[2] ?? 200);
const signer = () =>
  createSigner({ keys: [{ kid: "bench", alg: "HS256", secret: "a bench secret of more than thirty-two bytes" }] });

async function measure(open: () => InboxStore): Promise<number[]> {
  const agent = createInbox({ store: open(), signer: signer() });
  const approverSide = createInbox({ store: open(), signer: signer() });
  const { approver } = await approverSide.approvers.add({ name: "bench" });
  let started = 0;
  const tool = defineTool({
    name: "send_email",
    execute: () => {
      started = performance.now();
    },
  });
  const hooks = new ToolHooks();
  hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox: agent, mode: "wait", caller: "agent" }) }));
  let next: ((r: InboxRequest) => void) | undefined;
  agent.subscribe((e) => e.type === "request" && next?.(e.request));
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const submitted = new Promise<InboxRequest>((resolve) => (next = resolve));
    const call = hooks.invoke(tool, { to: "ops@example.com", n: i }, { callId: `call_${i}` });
    const request = await submitted;
    // Let the waiting call settle into its poll, as it would while a person reads the page.
    await new Promise((r) => setTimeout(r, 2 + (i % 7)));
    const decided = performance.now();
    await approverSide.decide(request.id, { approver, approve: true, digest: request.binding.digest });
    const out = await call;
    if (out.status !== "ok") throw new Error(`call ${i} ended ${out.status}: ${out.reason}`);
    samples.push(started - decided);
  }
  await agent.close();
  await approverSide.close();
  return samples.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
const rows: string[] = [];
const dir = mkdtempSync(join(tmpdir(), "toolware-inbox-bench-"));
try {
  const sqlite = await measure(() => sqliteInboxStore({ file: join(dir, "inbox.db") }));
  rows.push(
    `| SQLite (a file, WAL) | ${iterations} | ${pct(sqlite, 50).toFixed(1)} ms | ${pct(sqlite, 99).toFixed(1)} ms | ≤ 50 ms |`,
  );
  const server = await startRedis();
  const clients: Redis[] = [];
  try {
    const redis = await measure(() => {
      const client = new Redis(server.port, "127.0.0.1");
      clients.push(client);
      return redisInboxStore({ client, prefix: "bench:" });
    });
    rows.push(
      `| Redis (loopback) | ${iterations} | ${pct(redis, 50).toFixed(1)} ms | ${pct(redis, 99).toFixed(1)} ms | ≤ 50 ms |`,
    );
  } finally {
    for (const c of clients) c.disconnect();
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log("| inbox store | decisions | p50 | p99 | target p99 |\n| --- | --- | --- | --- | --- |");
console.log(rows.join("\n"));
