import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import type { Approver, Inbox, InboxOptions, InboxStore } from "./contract.js";
import { createInbox } from "./inbox.js";
import { redisInboxStore } from "./redis-store.js";
import { createSigner } from "./signer.js";
import { sqliteInboxStore } from "./sqlite-store.js";

export const SECRET = "a test secret of more than thirty-two bytes";
export const signer = () => createSigner({ keys: [{ kid: "k1", alg: "HS256", secret: SECRET }] });

/** A temporary folder, removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "toolware-inbox-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A throwaway redis-server on a free loopback port, nothing kept on disk. The tests fail, not skip, without one. */
export interface RedisServer {
  readonly port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: "ignore",
    },
  );
  const failed = new Promise<never>((_, reject) =>
    child.once("error", (e) =>
      reject(new Error(`redis-server could not start (install it: bash scripts/install-redis.sh): ${e.message}`)),
    ),
  );
  // Commands wait in ioredis's queue while it retries the connection: the first PONG means the server is up.
  const probe = new Redis({ port, host: "127.0.0.1", retryStrategy: () => 20, maxRetriesPerRequest: null });
  probe.on("error", () => {});
  await Promise.race([failed, probe.ping()]);
  probe.disconnect();
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/** The stores every shared test runs against: a real SQLite file, a real redis-server. */
export interface StoreKind {
  readonly name: "sqlite" | "redis";
  open(): Promise<InboxStore>;
  stop(): Promise<void>;
}

export function sqliteKind(): StoreKind {
  const { dir, remove } = tempDir();
  const stores: InboxStore[] = [];
  return {
    name: "sqlite",
    async open() {
      const store = sqliteInboxStore({ file: join(dir, "inbox.db") });
      stores.push(store);
      return store;
    },
    async stop() {
      for (const s of stores) await s.close();
      remove();
    },
  };
}

export function redisKind(): StoreKind {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];
  const prefix = `t${Math.random().toString(36).slice(2)}:`;
  return {
    name: "redis",
    async open() {
      server ??= await startRedis();
      const client = new Redis({ port: server.port, host: "127.0.0.1", lazyConnect: false });
      clients.push(client);
      return redisInboxStore({ client, prefix });
    },
    async stop() {
      for (const c of clients) c.disconnect();
      await server?.stop();
    },
  };
}

/** An inbox on the store, with a "boss" (role approver) and an "ops" approver. */
export async function openInbox(
  kind: StoreKind,
  extra: Partial<InboxOptions> = {},
): Promise<{ inbox: Inbox; boss: Approver; ops: Approver; tokens: Record<string, string> }> {
  const inbox = createInbox({ store: await kind.open(), signer: signer(), pollMs: 5, ...extra });
  const boss = await inbox.approvers.add({ name: "boss", roles: ["approver", "finance"] });
  const ops = await inbox.approvers.add({ name: "ops", roles: ["approver"] });
  return { inbox, boss: boss.approver, ops: ops.approver, tokens: { boss: boss.token, ops: ops.token } };
}

export const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** The rejection's code, or "resolved". */
export async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return codeOf(error);
  }
}
