import { spawn } from "node:child_process";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import type { InboxStore } from "./contract.js";
import { createInbox } from "./inbox.js";
import { redisInboxStore } from "./redis-store.js";
import { sqliteInboxStore } from "./sqlite-store.js";
import { signer, startRedis, tempDir } from "./test-utils.js";

const root = new URL("../../../", import.meta.url).pathname;
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
const worker = new URL("./test-worker.ts", import.meta.url).pathname;

function start(args: string[]) {
  const child = spawn(process.execPath, [tsx, "--conditions", "@toolware/source", worker, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const firstLine = new Promise<unknown>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.slice(0, out.indexOf("\n"))));
    });
    child.once("exit", (code) => reject(new Error(`the inbox process exited (${code}): ${err}`)));
  });
  return { child, firstLine };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe.each(["sqlite", "redis"] as const)("an inbox process SIGKILLed with 100 pending requests (%s)", (kind) => {
  it("after a restart all 100 are there and decidable, and every waiting call gets exactly its decision", async () => {
    let where: string;
    let agentStore: InboxStore;
    if (kind === "sqlite") {
      const { dir, remove } = tempDir();
      cleanups.push(remove);
      where = join(dir, "inbox.db");
      agentStore = sqliteInboxStore({ file: where });
    } else {
      const server = await startRedis();
      cleanups.push(() => server.stop());
      where = String(server.port);
      const client = new Redis({ port: server.port, host: "127.0.0.1" });
      cleanups.push(() => client.disconnect());
      agentStore = redisInboxStore({ client, prefix: "crash:" });
    }
    const submitter = start([kind, where, "submit", "100"]);
    const ids = (await submitter.firstLine) as string[];
    expect(ids).toHaveLength(100);
    submitter.child.kill("SIGKILL");
    await new Promise((r) => submitter.child.once("exit", r));

    // The agents' side: one waiting call per request, in this process, on the same store.
    const agents = createInbox({ store: agentStore, signer: signer(), pollMs: 10 });
    const { token } = await agents.approvers.add({ name: "boss" });
    const waits = ids.map((id) => agents.wait(id));
    expect((await agents.list({ state: "pending", limit: 1000 })).length).toBe(100);

    const decider = start([kind, where, "decide", token]);
    expect(await decider.firstLine).toBe(100);
    const settled = await Promise.all(waits);
    settled.forEach((s, n) => {
      const i = (s.request.input as { i: number }).i;
      expect(s.request.id).toBe(ids[n]);
      expect(s.request.binding.callId).toBe(`call_${i}`);
      expect(s).toMatchObject({ outcome: i % 2 === 0 ? "approved" : "denied", reason: `decided ${i}` });
      expect(agents.verify(s.request)).toBe(true);
    });
    await agents.close();
  }, 60_000);
});
