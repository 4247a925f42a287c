// Two `toolware gateway` processes over Streamable HTTP in front of the real server-filesystem, sharing one real
// redis-server: limits and loop-guard windows hold across instances, and a guard that cannot reach Redis refuses.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openGatewayStores } from "./store.js";

const repo = realpathSync(new URL("../../../../../", import.meta.url).pathname);
const loader = new URL("node_modules/tsx/dist/loader.mjs", `file://${repo}/`).href;
const toolware = new URL("../../bin.ts", import.meta.url).pathname;
const fsRequire = createRequire(join(repo, "packages/gateway/package.json"));
const fsManifest = fsRequire.resolve("@modelcontextprotocol/server-filesystem/package.json");
const fsServer = join(
  dirname(fsManifest),
  (fsRequire(fsManifest) as { bin: Record<string, string> }).bin["mcp-server-filesystem"] ?? "",
);
const PASSWORD = "s3cret-gateway-pw";

interface RedisServer {
  readonly port: number;
  /** SIGKILL, as a crash. */
  kill(): Promise<void>;
  /** The same port again, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a loopback port, keeping nothing on disk. */
async function startRedis(): Promise<RedisServer> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const port = (probe.address() as { port: number }).port;
  await new Promise((done) => probe.close(done));
  let server: ChildProcess;
  const launch = async () => {
    server = spawn("redis-server", ["--port", `${port}`, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const ping = new Redis({ port, host: "127.0.0.1", retryStrategy: () => 50, maxRetriesPerRequest: null });
    ping.on("error", () => {});
    await ping.ping().finally(() => ping.disconnect());
  };
  const kill = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    server.kill("SIGKILL");
    await once(server, "exit");
  };
  await launch();
  return { port, kill, restart: launch, stop: kill };
}

const work = realpathSync(mkdtempSync(join(tmpdir(), "toolware-gateway-scaling-")));
mkdirSync(join(work, "files"));
writeFileSync(join(work, "files", "a.txt"), "alpha\n");
// Generous Redis timeouts: on a loaded test machine a slow answer must not become a refusal.
let redis: RedisServer;
const running: ChildProcess[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // A server that wants a password: the gateways read it from the environment, never from the URL.
  const admin = new Redis({ port: redis.port, host: "127.0.0.1" });
  await admin.config("SET", "requirepass", PASSWORD);
  admin.disconnect();
}, 30_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  // SIGTERM: each gateway drains and closes its upstream and its Redis connection.
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
          child.once("exit", () => {
            clearTimeout(force);
            done();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  await redis?.stop();
  rmSync(work, { recursive: true, force: true });
});

interface Instance {
  readonly client: Client;
  readonly stderr: () => string;
  readonly child: ChildProcess;
}

/** One gateway process on an ephemeral port, and an SDK client connected to it. */
async function instance(
  name: string,
  policy: string,
  args: string[],
  config: object,
  answer?: (prompt: string) => string,
): Promise<Instance> {
  const policyFile = join(work, `${name}.policy.yaml`);
  const configFile = join(work, `${name}.json`);
  writeFileSync(policyFile, policy);
  writeFileSync(configFile, JSON.stringify(config));
  const argv = ["--conditions", "@toolware/source", "--import", loader, toolware, "gateway", "--policy", policyFile];
  const child = spawn(
    process.execPath,
    [...argv, "--config", configFile, "--listen", "127.0.0.1:0", ...args, "--", process.execPath, fsServer, work],
    { cwd: repo, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, TOOLWARE_REDIS_PASSWORD: PASSWORD } },
  );
  running.push(child);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  await expect.poll(() => stderr, { timeout: 45_000, interval: 100 }).toMatch(/listening on http:\/\/\S+\/mcp/);
  const client = new Client(
    { name: `scaling-${name}`, version: "1.0.0" },
    answer === undefined ? {} : { capabilities: { elicitation: {} } },
  );
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: "accept",
      content: { answer: answer(request.params.message) },
    }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(/listening on (\S+)/.exec(stderr)?.[1] as string)));
  clients.push(client);
  return { client, child, stderr: () => stderr };
}

const read = (gw: Instance) =>
  gw.client.callTool({
    name: "read_text_file",
    arguments: { path: join(work, "files", "a.txt") },
  }) as Promise<CallToolResult>;
const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
const unique = (label: string) => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}:${label}:`;

const limitPolicy = (max: number, store = "") => `version: 1
default: allow
${store}rules:
  - name: limit-reads
    match: { tools: [read_text_file] }
    packs:
      rate-limit: { max: ${max}, per: 1m, key: tool, message: "the shared read limit is reached" }
`;

describe("toolware gateway --store: state shared by instances through Redis", () => {
  it("a rate limit is exact across two instances, whichever takes the call after the limit", async () => {
    const url = `redis://127.0.0.1:${redis.port}/0`;
    const config = { storeTimeoutMs: 10_000, storePrefix: unique("limit") };
    const [a, b] = await Promise.all([
      instance("limit-a", limitPolicy(3), ["--store", url], config),
      instance("limit-b", limitPolicy(3), ["--store", url], config),
    ]);
    const results: CallToolResult[] = [];
    for (const gw of [a, b, a, b, a, b]) results.push(await read(gw));
    expect(results.map((r) => r.isError === true)).toEqual([false, false, false, true, true, true]);
    expect(textOf(results[0] as CallToolResult)).toContain("alpha");
    for (const refused of results.slice(3)) expect(textOf(refused)).toContain("the shared read limit is reached");
    // A tool the rule does not match is not counted.
    const listed = await b.client.callTool({ name: "list_allowed_directories", arguments: {} });
    expect(listed.isError).not.toBe(true);
    for (const gw of [a, b]) expect(gw.stderr()).not.toContain(PASSWORD);
  }, 120_000);

  it("a loop-guard window is one window across two instances", async () => {
    const policy = `version: 1
default: allow
rules:
  - name: no-loops
    match: { tools: [read_text_file] }
    packs:
      loop-guard: { maxRepeats: false, maxInWindow: 3, windowMs: 1m, sameInput: true, scope: global, action: block, message: "the same read again: a loop" }
`;
    const url = `redis://127.0.0.1:${redis.port}`;
    const config = { storeTimeoutMs: 10_000, storePrefix: unique("loop") };
    const [a, b] = await Promise.all([
      instance("loop-a", policy, ["--store", url], config),
      instance("loop-b", policy, ["--store", url], config),
    ]);
    const results: CallToolResult[] = [];
    for (const gw of [a, b, a, b]) results.push(await read(gw));
    expect(results.map((r) => r.isError === true)).toEqual([false, false, true, true]);
    expect(textOf(results[2] as CallToolResult)).toContain("the same read again: a loop");
  }, 120_000);

  it("the policy file's own redis:// store is opened by the gateway (no --store) and shared", async () => {
    const store = `stores: { default: "redis://127.0.0.1:${redis.port}" }\n`;
    const config = { storeTimeoutMs: 10_000, storePrefix: unique("file") };
    const [a, b] = await Promise.all([
      instance("file-a", limitPolicy(2, store), [], config),
      instance("file-b", limitPolicy(2, store), [], config),
    ]);
    const results = [await read(a), await read(b), await read(a)];
    expect(results.map((r) => r.isError === true)).toEqual([false, false, true]);
    expect(textOf(results[2] as CallToolResult)).toContain("the shared read limit is reached");
  }, 120_000);

  it("an approval answered through one instance approves that call only: the same call through the other asks again", async () => {
    const policy = `version: 1
default: allow
rules:
  - name: approve-reads
    match: { tools: [read_text_file] }
    decide: approve
`;
    const asked: string[] = [];
    const config = { storeTimeoutMs: 10_000, storePrefix: unique("approve") };
    const url = `redis://127.0.0.1:${redis.port}`;
    const [a, b] = await Promise.all([
      instance("approve-a", policy, ["--store", url], config, (prompt) => {
        asked.push(`a: ${prompt}`);
        return "yes";
      }),
      instance("approve-b", policy, ["--store", url], config, (prompt) => {
        asked.push(`b: ${prompt}`);
        return "no";
      }),
    ]);
    const approved = await read(a);
    expect(approved.isError).not.toBe(true);
    expect(textOf(approved)).toContain("alpha");
    const again = await read(b);
    expect(again.isError).toBe(true);
    expect(textOf(again)).not.toContain("alpha");
    expect(asked.map((line) => line.slice(0, 2))).toEqual(["a:", "b:"]);
    expect(asked[1]).toContain("Approve read_text_file");
  }, 120_000);
});

// One server these tests kill and start again (each leaves it running).
describe("toolware gateway --store: Redis going down", () => {
  let own: RedisServer;
  beforeAll(async () => {
    own = await startRedis();
  }, 30_000);
  afterAll(async () => own?.stop());

  it("guards refuse while Redis is down, the gateway stays up and says so, and recovers when Redis is back", async () => {
    const gw = await instance("down", limitPolicy(100), ["--store", `redis://127.0.0.1:${own.port}`], {
      storeTimeoutMs: 10_000,
      storePrefix: unique("down"),
    });
    expect((await read(gw)).isError).not.toBe(true);
    await own.kill();
    const refused = await read(gw);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).not.toContain("alpha");
    await expect
      .poll(gw.stderr, { timeout: 10_000 })
      .toMatch(new RegExp(`Redis at redis://127\\.0\\.0\\.1:${own.port} is unavailable .*refuse calls`));
    // Calls no guard needs Redis for still pass, and the process is alive.
    expect((await gw.client.callTool({ name: "list_allowed_directories", arguments: {} })).isError).not.toBe(true);
    expect(gw.child.exitCode).toBeNull();
    await own.restart();
    await expect.poll(gw.stderr, { timeout: 15_000 }).toContain(`Redis at redis://127.0.0.1:${own.port} is back`);
    await expect.poll(async () => (await read(gw)).isError === true, { timeout: 10_000 }).toBe(false);
  }, 120_000);

  it("in this process, with loadPolicy and ToolHooks: serves both --store and the file's URL on one connection each, fails closed while down, says it once", async () => {
    const lines: string[] = [];
    const url = `redis://127.0.0.1:${own.port}`;
    const shared = await openGatewayStores({ url, timeoutMs: 10_000, prefix: unique("inproc") }, (line) =>
      lines.push(line),
    );
    const file = join(work, "inproc.policy.yaml");
    writeFileSync(file, limitPolicy(2, `stores: { default: "${url}/0" }\n`));
    const a = await loadPolicy(file, { ...(shared.stores ? { stores: shared.stores } : {}), connect: shared.connect });
    const b = await loadPolicy(file, { connect: shared.connect });
    const search = defineTool({ name: "read_text_file", execute: () => "alpha" });
    const [ha, hb] = [new ToolHooks(), new ToolHooks()];
    ha.use(a);
    hb.use(b);
    const statuses = [];
    for (const hooks of [ha, hb, ha]) statuses.push((await hooks.invoke(search, {})).status);
    expect(statuses).toEqual(["ok", "ok", "blocked"]);
    await own.kill();
    const down = await ha.invoke(search, {});
    expect(down.status).toBe("blocked");
    expect((await hb.invoke(search, {})).status).toBe("blocked");
    const said = lines.filter((l) => l.includes("is unavailable"));
    // One line per connection (the --store URL and the file's /0 URL), not one per refused call.
    expect(said.length).toBeGreaterThanOrEqual(1);
    expect(said.length).toBeLessThanOrEqual(2);
    await own.restart();
    await expect.poll(() => lines.filter((l) => l.includes("is back")).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await hb.invoke(search, {})).status, { timeout: 10_000 }).toBe("ok");
    await shared.close();
  }, 60_000);
});
