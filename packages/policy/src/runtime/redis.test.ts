import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolHooks } from "@toolware/core";
import { redisCacheStore, redisRateLimitStore } from "@toolware/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PolicyLoadError } from "../load/index.js";
import { loadPolicy } from "./load.js";
import type { PolicyStoresOption } from "./options.js";
import { tool } from "./test-fixtures.js";
import { watchPolicy } from "./watch.js";

// A real redis-server on loopback, configured through its stdin: the URL the file names is the one it listens on.
let url = "";
let stopServer: () => void = () => {};
const clients: Redis[] = [];

beforeAll(async () => {
  const port = await new Promise<number>((done, fail) => {
    const probe = createServer().once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => done(free));
    });
  });
  const server = spawn("redis-server", ["-"], { stdio: ["pipe", "ignore", "ignore"] });
  server.stdin.end(`port ${port}\nbind 127.0.0.1\nsave ""\nappendonly no\n`);
  stopServer = () => server.kill("SIGKILL");
  const ready = new Redis({ port, host: "127.0.0.1", retryStrategy: () => 25, maxRetriesPerRequest: null });
  ready.on("error", () => {});
  await ready.ping();
  ready.disconnect();
  url = `redis://127.0.0.1:${port}/0`;
}, 30_000);
afterAll(() => {
  for (const c of clients) c.disconnect();
  stopServer();
});

const policyFile = (text: string): string => {
  const file = join(mkdtempSync(join(tmpdir(), "toolware-policy-redis-")), "toolware.policy.yaml");
  writeFileSync(file, text);
  return file;
};
const limited = (storeUrl: string, max = 2) => `version: 1
default: allow
stores: { default: "${storeUrl}" }
rules:
  - name: slow-down
    match: { tools: [search] }
    packs:
      rate-limit: { max: ${max}, per: 60000 }
`;

/** The connector a user writes: one ioredis client per URL, the stores of `@toolware/redis` on it. */
function connector(prefix: string, seen: string[] = []): (u: string) => PolicyStoresOption {
  return (u) => {
    seen.push(u);
    const client = new Redis(u);
    clients.push(client);
    return { rateLimit: redisRateLimitStore({ client, prefix }), cache: redisCacheStore({ client, prefix }) };
  };
}

describe("loadPolicy: a Redis URL named in the file, opened by connect.redis", () => {
  it("keeps the rate limit in the named redis-server, shared by two packs of the same file", async () => {
    const file = policyFile(limited(url));
    const seen: string[] = [];
    const prefix = `t${Date.now()}:`;
    const first = new ToolHooks();
    first.use(await loadPolicy(file, { connect: { redis: connector(prefix, seen) } }));
    expect(seen).toEqual([url]);
    expect((await first.invoke(tool("search"), {})).status).toBe("ok");
    expect((await first.invoke(tool("search"), {})).status).toBe("ok");
    expect((await first.invoke(tool("search"), {})).status).toBe("blocked");
    // Another process's policy (its own pack, its own client) sees the same window: the state is in Redis.
    const second = new ToolHooks();
    second.use(await loadPolicy(file, { connect: { redis: connector(prefix) } }));
    expect((await second.invoke(tool("search"), {})).status).toBe("blocked");
    expect((await second.invoke(tool("other"), {})).status).toBe("ok");
  });

  it("without a connector the load fails with TOOLWARE_POLICY_STORE and the fix, never a memory store", async () => {
    const file = policyFile(limited(url));
    const err = await loadPolicy(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PolicyLoadError);
    expect((err as PolicyLoadError).code).toBe("TOOLWARE_POLICY_STORE");
    expect((err as Error).message).toContain(`${file}:8:19: rules[0].packs.rate-limit: the store ${url} is named`);
    expect((err as Error).message).toContain("connect: { redis: (url) =>");
    expect((err as Error).message).toContain("redisRateLimitStore");
  });

  it("a connector that throws, rejects or lacks the store fails the load naming the URL and the pack", async () => {
    const file = policyFile(limited(url).replace("per: 60000", `per: 60000, store: "${url}"`));
    for (const redis of [
      () => {
        throw new Error("ECONNREFUSED");
      },
      () => Promise.reject(new Error("ECONNREFUSED")),
    ]) {
      const err = await loadPolicy(file, { connect: { redis } }).catch((e: unknown) => e);
      expect((err as PolicyLoadError).code).toBe("TOOLWARE_POLICY_STORE");
      expect((err as Error).message).toContain(
        `rules[0].packs.rate-limit.store: connect.redis("${url}") failed: ECONNREFUSED`,
      );
    }
    const none = await loadPolicy(file, { connect: { redis: () => ({}) } }).catch((e: unknown) => e);
    expect((none as PolicyLoadError).code).toBe("TOOLWARE_POLICY_STORE");
    expect((none as Error).message).toContain("returned no `rateLimit` store");
    const junk = await loadPolicy(file, { connect: { redis: () => ({ rateLimt: {} }) as never } }).catch(
      (e: unknown) => e,
    );
    expect((junk as Error).message).toContain('did you mean "rateLimit"');
  });

  it("refuses a misspelt or mistyped connector like every option", async () => {
    const file = policyFile(limited(url));
    await expect(loadPolicy(file, { conect: {} } as never)).rejects.toThrow(/did you mean "connect"/);
    await expect(loadPolicy(file, { connect: { rediss: () => ({}) } } as never)).rejects.toThrow(
      /did you mean "redis"/,
    );
    await expect(loadPolicy(file, { connect: { redis: url } } as never)).rejects.toMatchObject({
      code: "TOOLWARE_INVALID_OPTION",
    });
    await expect(loadPolicy(file, { connect: null } as never)).rejects.toMatchObject({
      code: "TOOLWARE_INVALID_OPTION",
    });
  });

  it("a watched policy asks the connector once per URL across reloads", async () => {
    const file = policyFile(limited(url, 5));
    const seen: string[] = [];
    const policy = await watchPolicy(file, { connect: { redis: connector(`w${Date.now()}:`, seen) } });
    try {
      await writeFile(file, limited(url, 1));
      expect(await policy.reload()).toBe(true);
      expect(policy.version()).toBe(2);
      expect(seen).toEqual([url]);
    } finally {
      policy.close();
    }
  });
});
