import { createServer } from "node:net";
import { join } from "node:path";
import { createInbox, createSigner, sqliteInboxStore } from "@toolware/inbox";
import { afterAll, describe, expect, it, vi } from "vitest";
import { EXIT } from "../kit.js";
import { child, inProcess, scratch, started } from "../test-fixtures.js";
import { freePort, KEYS, KEYS_ENV, SECRET, startCli, startRedis } from "./test-fixtures.js";

const { dir, write } = scratch("toolware-cli-inbox-serve-");
const env = { [KEYS_ENV]: KEYS };

interface ApiAnswer {
  status: number;
  json: { requests?: { id: string; digest: string }[]; [key: string]: unknown };
}

async function api(url: string, path: string, token: string, body?: unknown): Promise<ApiAnswer> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as ApiAnswer["json"] };
}

function addApprover(store: string, name: string, role: string): string {
  const run = child(["inbox", "approver", "add", name, "--role", role, "--store", store], dir);
  expect([run.code, run.err]).toEqual([0, expect.stringContaining(`approver ${name} (roles: ${role}) added`)]);
  expect(run.out).toMatch(/^twa_[\w-]{43}\n$/);
  return run.out.trim();
}

// Each child starts Node with tsx's loader: seconds apiece on a loaded machine.
describe("toolware inbox, the process", { timeout: 120_000 }, () => {
  it("starts on loopback, serves the page and the API, decides a call another process waits for, stops on SIGTERM", async () => {
    const db = join(dir, "inbox.db");
    const token = addApprover(`sqlite:${db}`, "alice", "ops");
    const running = startCli(["inbox", "--store", `sqlite:${db}`, "--port", "0", "--audit", "audit.jsonl"], dir, env);
    const url = await running.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await api(url, "/api/requests", "twa_wrong")).status).toBe(401);

    // An agent in this process shares the store and the keys: its call waits for the decision made over HTTP.
    const agent = createInbox({
      store: sqliteInboxStore({ file: db }),
      signer: createSigner({ keys: [{ kid: "k1", alg: "HS256", secret: SECRET }] }),
      pollMs: 5,
    });
    const { request } = await agent.submit({
      toolName: "send_email",
      callId: "c1",
      input: { to: "a@example.com" },
      caller: "mailer",
    });
    const waiting = agent.wait(request.id);
    const listed = await api(url, "/api/requests?state=pending", token);
    expect(listed.json.requests?.map((r) => r.id)).toEqual([request.id]);
    const digest = listed.json.requests?.[0]?.digest as string;
    expect((await api(url, `/api/requests/${request.id}/approve`, token, { digest, reason: "fine" })).status).toBe(200);
    expect((await api(url, `/api/requests/${request.id}/approve`, token, { digest })).status).toBe(409);
    expect(await waiting).toMatchObject({ outcome: "approved", input: { to: "a@example.com" } });
    await agent.close();

    const stopped = await running.stop("SIGTERM");
    expect(stopped.code).toBe(0);
    expect(stopped.err).toMatch(/stopping: finishing open requests, closing the store\ntoolware inbox: stopped\n$/);
    // The audit file the server wrote holds the decision, and its chain is whole.
    const verified = child(["audit", "verify", "audit.jsonl"], dir);
    expect(verified).toMatchObject({ code: 0, out: expect.stringMatching(/^audit\.jsonl: OK: 1 record, /) });
  });

  it("stops on SIGINT too, with exit 0", async () => {
    const running = startCli(["inbox", "--store", `sqlite:${join(dir, "int.db")}`, "--port", "0"], dir, env);
    await running.url;
    expect((await running.stop("SIGINT")).code).toBe(0);
  });

  it("refuses a port in use with a clear error and exit 1", async () => {
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    try {
      const run = startCli(["inbox", "--store", `sqlite:${join(dir, "busy.db")}`, "--port", String(port)], dir, env);
      const result = await run.exited;
      expect(result).toEqual({
        code: 1,
        out: "",
        err: `toolware: inbox: cannot listen on 127.0.0.1:${port}: the port is in use (another inbox?); choose another with --port\n`,
      });
    } finally {
      taken.close();
    }
  });

  it("exits 2 for a bad config file, naming the file and the key", async () => {
    write("bad.yaml", "listen:\n  port: 80\n");
    const run = await startCli(["inbox", "--config", "bad.yaml"], dir, env).exited;
    expect(run).toEqual({
      code: 2,
      out: "",
      err: 'toolware inbox: bad.yaml:1:1: listen: unknown key "listen" (known keys: host, port, baseUrl, store, redisPrefix, keys, audit, webhooks, bodyLimit, sessionTtlMs, secureCookie)\nRun "toolware inbox --help" for usage.\n',
    });
  });

  describe("on Redis", () => {
    const redis = startRedis();
    afterAll(async () => (await redis).stop());

    it("keeps approvers and requests in Redis, from a config file", async () => {
      const { url: redisUrl } = await redis;
      write("redis.yaml", `store: "${redisUrl}"\nredisPrefix: "cli-test:"\nport: 0\n`);
      const add = child(["inbox", "approver", "add", "bob", "--config", "redis.yaml", "--json"], dir);
      expect(add.code).toBe(0);
      const { token, roles } = JSON.parse(add.out) as { token: string; roles: string[] };
      expect(roles).toEqual([]);
      expect(child(["inbox", "approver", "list", "--config", "redis.yaml"], dir)).toMatchObject({
        code: 0,
        out: "bob\n",
      });
      const running = startCli(["inbox", "--config", "redis.yaml"], dir, env);
      const url = await running.url;
      expect(await api(url, "/api/requests", token)).toEqual({ status: 200, json: { requests: [] } });
      expect(running.err()).toContain(`store ${redisUrl}`);
      expect((await running.stop()).code).toBe(0);
    });

    it("fails to start when Redis does not answer, exit 1", async () => {
      const port = await freePort();
      const run = await startCli(["inbox", "--store", `redis://127.0.0.1:${port}`], dir, env).exited;
      expect(run.code).toBe(1);
      expect(run.err).toMatch(
        new RegExp(`^toolware: inbox: cannot connect to Redis at redis://127\\.0\\.0\\.1:${port}`),
      );
    });
  });
});

describe("toolware inbox in this process", () => {
  it("runs until its signal aborts, then closes the store; approvers are added, listed and removed", async () => {
    vi.stubEnv(KEYS_ENV, KEYS);
    const tw = (...argv: string[]) => inProcess(argv, dir);
    const store = ["--store", `sqlite:${join(dir, "here.db")}`];
    const added = await tw("inbox", "approver", "add", "carol", "--role", "ops,finance", ...store);
    expect(added.code).toBe(0);
    const token = added.out.trim();
    const listed = await tw("inbox", "approver", "list", "--json", ...store);
    expect(JSON.parse(listed.out)).toEqual([{ name: "carol", roles: ["ops", "finance"] }]);
    expect((await tw("inbox", "approver", "add", "x", "--role", "a b", ...store)).code).toBe(EXIT.usage);

    const serving = started(["inbox", "--port", "0", "--base-url", "https://inbox.example.com", ...store], dir);
    await vi.waitFor(() => expect(serving.out()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/), {
      timeout: 10_000,
    });
    const url = /listening on (\S+)/.exec(serving.out())?.[1] as string;
    expect((await api(url, "/api/grants", token)).status).toBe(200);
    serving.stop();
    expect(await serving.code).toBe(EXIT.ok);
    expect(serving.err()).toMatch(/toolware inbox: stopped\n$/);

    expect((await tw("inbox", "approver", "remove", "carol", ...store)).code).toBe(0);
    expect(await tw("inbox", "approver", "remove", "carol", ...store)).toEqual({
      code: EXIT.failure,
      out: "",
      err: 'toolware inbox: no approver named "carol"\n',
    });
    expect((await tw("inbox", "approver", "list", ...store)).err).toMatch(/no approvers yet/);
    vi.unstubAllEnvs();
  });
});
