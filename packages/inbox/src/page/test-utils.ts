import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import type { Page } from "playwright-core";
import type { Inbox, InboxRequest, InboxStore } from "../contract.js";
import { createInbox } from "../inbox.js";
import { redisInboxStore } from "../redis-store.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer, startRedis, tempDir } from "../test-utils.js";

// Helpers of the tests that run the inbox, its server and its agents as separate processes.

export const root = new URL("../../../../", import.meta.url).pathname;
// tsx as a loader in the one process (its CLI would run the script in a child, which a SIGKILL of the CLI leaves running).
const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const running = new Set<Worker>();
export const CHROMIUM = process.env.TOOLWARE_CHROMIUM ?? "/usr/bin/chromium";
export const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
];

/** A TypeScript script in its own Node process: its first stdout line as JSON, and how it ended. */
export interface Worker {
  readonly child: ChildProcess;
  readonly firstLine: Promise<unknown>;
  /** Resolves when the process ends (any way); `kill()` SIGKILLs it and waits for that. */
  readonly exited: Promise<void>;
  kill(): Promise<void>;
}

export function startWorker(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, ["--conditions", "@toolware/source", "--import", tsx, script, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let out = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const firstLine = new Promise<unknown>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.slice(0, out.indexOf("\n"))));
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`${script} exited (${code ?? signal}) before a line: ${err}`)),
    );
  });
  firstLine.catch(() => {});
  const worker: Worker = {
    child,
    firstLine,
    exited,
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      return exited;
    },
  };
  running.add(worker);
  exited.then(() => running.delete(worker));
  return worker;
}

/** SIGKILLs every worker still running (for `afterAll`: a failed test leaves no process behind). */
export async function killWorkers(): Promise<void> {
  await Promise.all([...running].map((w) => w.kill()));
}

/** The pending requests by call id, once at least `count` are there. */
export async function pendingByCall(inbox: Inbox, count: number): Promise<Map<string, InboxRequest>> {
  for (let i = 0; i < 1500; i++) {
    const list = await inbox.list({ state: "pending", limit: 1000 });
    if (list.length >= count) return new Map(list.map((r) => [r.binding.callId, r]));
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the agents' calls never reached the inbox");
}

/** Signs in with the keyboard alone: the token field, then Enter submits the form. */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel("Approver token").focus();
  await page.keyboard.type(token);
  await page.keyboard.press("Enter");
}

/** What the page's tests send and read without a browser. */
export const FORM = { "content-type": "application/x-www-form-urlencoded" };
export const cookieOf = (res: Response, name: string): string =>
  res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? "";
export const csrfIn = (text: string): string => /name="csrf" value="([^"]+)"/.exec(text)?.[1] ?? "";

type App = { request(path: string, init?: RequestInit): Response | Promise<Response> };

/** Signs in through the login form; the session cookie as set, and the page's CSRF token. */
export async function pageLogin(app: App, token: string): Promise<{ set: string; cookie: string; csrf: string }> {
  const first = await app.request("/");
  const pre = cookieOf(first, "toolware_inbox_login").split(";")[0] as string;
  const res = await app.request("/login", {
    method: "POST",
    headers: { ...FORM, cookie: pre },
    body: new URLSearchParams({ csrf: csrfIn(await first.text()), token }).toString(),
  });
  if (res.status !== 303) throw new Error(`the login answered ${res.status}`);
  const set = cookieOf(res, "toolware_inbox_session");
  const cookie = set.split(";")[0] as string;
  const home = await app.request("/", { headers: { cookie } });
  return { set, cookie, csrf: csrfIn(await home.text()) };
}

export type Kind = "sqlite" | "redis";
type Cleanups = (() => Promise<void> | void)[];

/**
 * A store this process shares with server and agent processes: a SQLite file, or a real
 * redis-server (its port is `where`). The workers open the same one with `kind` and `where`.
 */
export async function sharedInbox(kind: Kind, cleanups: Cleanups): Promise<{ where: string; inbox: Inbox }> {
  let store: InboxStore;
  let where: string;
  if (kind === "sqlite") {
    const dir = tempDir();
    cleanups.push(dir.remove);
    where = join(dir.dir, "inbox.db");
    store = sqliteInboxStore({ file: where });
  } else {
    const server = await startRedis();
    cleanups.push(() => server.stop());
    where = String(server.port);
    const client = new Redis({ port: server.port, host: "127.0.0.1" });
    cleanups.push(() => client.disconnect());
    store = redisInboxStore({ client, prefix: "e2e:" });
  }
  const inbox = createInbox({ store, signer: signer() });
  cleanups.push(() => inbox.close());
  return { where, inbox };
}

const agentScript = new URL("./test-worker.ts", import.meta.url).pathname;
const serverScript = new URL("../server/test-worker.ts", import.meta.url).pathname;

/** What an agent process's call got: its status, the reason, what the tool ran with and how many times. */
export type AgentResult = { callId: string; status: string; reason?: string; ran?: unknown; runs: number };

/** An agent process whose send_email calls wait in the inbox (approval pack, `mode: "wait"`). */
export const agentProcess = (kind: Kind, where: string, name: string, calls: unknown[]): Promise<AgentResult[]> =>
  startWorker(agentScript, [kind, where, name, JSON.stringify(calls)]).firstLine as Promise<AgentResult[]>;

/** The inbox server in its own process (port 0: a free one). */
export async function serverProcess(kind: Kind, where: string, port = 0): Promise<{ worker: Worker; url: string }> {
  const worker = startWorker(serverScript, [kind, where, String(port)]);
  const { url } = (await worker.firstLine) as { url: string };
  return { worker, url };
}
