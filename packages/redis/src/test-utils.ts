import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

// Throwaway redis-server processes on loopback ports for the tests and the bench. They keep
// nothing on disk but a temporary folder, removed when they stop.

const run = promisify(execFile);

/** Throws a clear message when redis-server or redis-cli is missing: the tests must fail, not skip. */
export function requireRedisBinaries(): void {
  for (const bin of ["redis-server", "redis-cli"]) {
    try {
      execFileSync(bin, ["--version"], { stdio: "ignore" });
    } catch {
      throw new Error(
        `${bin} is not installed: the @toolware/redis tests need a real server. ` +
          "Install it with `bash scripts/install-redis.sh` (Debian: apt-get install -y redis-server).",
      );
    }
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A loopback port that is free, and whose cluster bus port (+10000) is free too. */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = 20_000 + Math.floor(Math.random() * 25_000);
    if ((await portFree(port)) && (await portFree(port + 10_000))) return port;
  }
  throw new Error("no free loopback port found");
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once("error", () => finish(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => finish(data.toString().startsWith("+PONG")));
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One redis-server process. */
export interface RedisServer {
  readonly port: number;
  /** Kills the server at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after `kill`). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Starts a standalone server (or a cluster node, with `extra` flags) on a free loopback port. */
export async function startRedis(extra: readonly string[] = [], port?: number): Promise<RedisServer> {
  requireRedisBinaries();
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), `toolware-redis-${p}-`));
  const args = ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  let child: ChildProcess;
  const launch = async () => {
    child = spawn("redis-server", [...args, ...extra], { stdio: "ignore" });
    await waitFor(`redis-server on port ${p}`, () => ping(p));
  };
  await launch();
  const kill = async () => {
    child.kill("SIGKILL");
    await exited(child);
  };
  return {
    port: p,
    kill,
    restart: launch,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A three-master Redis Cluster on loopback, made with `redis-cli --cluster create`. */
export interface RedisTestCluster {
  readonly nodes: readonly { host: string; port: number }[];
  stop(): Promise<void>;
}

export async function startCluster(): Promise<RedisTestCluster> {
  const servers: RedisServer[] = [];
  try {
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const flags = ["--cluster-enabled", "yes", "--cluster-config-file", `nodes-${port}.conf`];
      servers.push(await startRedis([...flags, "--cluster-node-timeout", "5000"], port));
    }
    const addresses = servers.map((s) => `127.0.0.1:${s.port}`);
    await run("redis-cli", ["--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"]);
    for (const s of servers) {
      await waitFor(`cluster node ${s.port}`, async () => {
        const { stdout } = await run("redis-cli", ["-p", String(s.port), "cluster", "info"]);
        return stdout.includes("cluster_state:ok");
      });
    }
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
  return {
    nodes: servers.map((s) => ({ host: "127.0.0.1", port: s.port })),
    stop: async () => {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

const root = new URL("../../../", import.meta.url).pathname;
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
const worker = new URL("./test-worker.ts", import.meta.url).pathname;

/**
 * Starts `workers` processes running `scenario` against the given ports, lets them all start
 * at once (each says "ready", then all are told "go"), and returns what each printed.
 */
export async function runWorkers(
  workers: number,
  scenario: string,
  ports: readonly number[],
  prefix: string,
  count: number,
  limit: number,
): Promise<unknown[]> {
  const args = [
    tsx,
    "--conditions",
    "@toolware/source",
    worker,
    scenario,
    ports.join(","),
    prefix,
    `${count}`,
    `${limit}`,
  ];
  const children = Array.from({ length: workers }, () =>
    spawn(process.execPath, args, { cwd: root, stdio: ["pipe", "pipe", "pipe"] }),
  );
  const outputs = children.map((child) => {
    let out = "";
    let err = "";
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.startsWith("ready\n")) resolve();
      });
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
      });
      child.once("exit", (code) => reject(new Error(`worker exited early (${code}): ${err}`)));
    });
    const result = new Promise<unknown>((resolve, reject) => {
      child.once("exit", (code) => {
        if (code !== 0) reject(new Error(`worker failed (${code}): ${err}`));
        else resolve(JSON.parse(out.slice("ready\n".length)));
      });
    });
    return { ready, result };
  });
  try {
    await Promise.all(outputs.map((o) => o.ready));
  } catch (error) {
    for (const c of children) c.kill();
    throw error;
  }
  for (const child of children) child.stdin.end("go\n");
  return Promise.all(outputs.map((o) => o.result));
}
