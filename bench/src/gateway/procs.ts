// The suite's side of the proxy processes: starting them, connecting clients, asking for their CPU time and memory.
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LISTENING_MARK, STATS_MARK } from "./marks.js";

const here = dirname(fileURLToPath(import.meta.url));

/** What a proxy reports on SIGUSR2. */
export interface Stats {
  readonly cpuUs: number;
  readonly heapUsed: number;
  readonly rss: number;
}

/** A proxy process: the gateway or the bare pass-through. */
export interface ProxyProcess {
  readonly mode: "gateway" | "bare";
  /** A new client session (over stdio, the one client the process serves). */
  client(): Promise<Client>;
  stats(): Promise<Stats>;
  close(): Promise<void>;
}

// Reads a child's stderr by lines: marked lines answer waiters, the rest is passed on so failures stay visible.
function lines(stream: Readable): (mark: string) => Promise<string> {
  const waiting: { mark: string; resolve: (line: string) => void }[] = [];
  let buffered = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf("\n");
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const i = waiting.findIndex((w) => line.startsWith(w.mark));
      if (i >= 0) waiting.splice(i, 1)[0]?.resolve(line);
      else process.stderr.write(`${line}\n`);
      nl = buffered.indexOf("\n");
    }
  });
  return (mark) => new Promise((resolve) => waiting.push({ mark, resolve: (l) => resolve(l.slice(mark.length)) }));
}

function statsOf(pid: number, next: (mark: string) => Promise<string>): () => Promise<Stats> {
  return async () => {
    const line = next(STATS_MARK);
    process.kill(pid, "SIGUSR2");
    return JSON.parse(await line) as Stats;
  };
}

const clientInfo = { name: "bench-client", version: "1.0.0" };

/**
 * Starts the upstream over Streamable HTTP; resolves with its URL and a stop function.
 *
 * @example
 * ```ts
 * const up = await httpUpstream();
 * ```
 */
export async function httpUpstream(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(here, "upstream.js"), "http"], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await lines(child.stderr as Readable)(LISTENING_MARK);
  return { url, stop: () => void child.kill() };
}

/**
 * Starts a proxy process serving `serve` in front of `upstream` ("stdio" or the HTTP upstream's URL).
 *
 * @example
 * ```ts
 * const gw = await startProxy("gateway", "http", up.url);
 * ```
 */
export async function startProxy(
  mode: ProxyProcess["mode"],
  serve: "stdio" | "http",
  upstream: string,
): Promise<ProxyProcess> {
  const args = ["--expose-gc", join(here, "proxy.js"), mode, serve, upstream];
  const env = { ...getDefaultEnvironment(), BENCH_PROXY_GC: process.env.BENCH_PROXY_GC ?? "0" };
  if (serve === "stdio") {
    const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: "pipe" });
    const next = lines(transport.stderr as Readable);
    const client = new Client(clientInfo);
    await client.connect(transport);
    let given = false;
    return {
      mode,
      client: async () => {
        if (given) throw new Error("a stdio proxy serves one client");
        given = true;
        return client;
      },
      stats: statsOf(transport.pid as number, next),
      close: () => client.close(),
    };
  }
  const child: ChildProcess = spawn(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  const next = lines(child.stderr as Readable);
  const url = new URL(await next(LISTENING_MARK));
  const clients: Client[] = [];
  return {
    mode,
    client: async () => {
      const client = new Client(clientInfo);
      await client.connect(new StreamableHTTPClientTransport(url));
      clients.push(client);
      return client;
    },
    stats: statsOf(child.pid as number, next),
    close: async () => {
      await Promise.allSettled(clients.map((c) => c.close()));
      child.kill();
    },
  };
}

/**
 * One echo call; throws unless the answer is the text sent.
 *
 * @example
 * ```ts
 * await echo(client, "hello");
 * ```
 */
export async function echo(client: Client, text: string): Promise<void> {
  const result = (await client.callTool({ name: "echo", arguments: { text } })) as CallToolResult;
  const got = result.content[0]?.type === "text" ? result.content[0].text : undefined;
  if (got !== text || result.isError === true) throw new Error(`echo: expected ${text}, got ${JSON.stringify(result)}`);
}
