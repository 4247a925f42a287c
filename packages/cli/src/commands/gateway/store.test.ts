import { createServer } from "node:net";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { inProcess, scratch } from "../test-fixtures.js";
import { flagUrl, openGatewayStores, PASSWORD_ENV, storeSettings, storeUrl } from "./store.js";

const { dir, write } = scratch("toolware-cli-gateway-store-");
write("policy.yaml", "version: 1\ndefault: allow\n");
const gateway = (...args: string[]) => inProcess(["gateway", "--policy", "policy.yaml", ...args, "--", "node"], dir);

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((done) => server.once("listening", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

const saved = process.env[PASSWORD_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[PASSWORD_ENV];
  else process.env[PASSWORD_ENV] = saved;
  delete process.env.GW_STORE_PW;
});

describe("the store URL", () => {
  it("takes redis:// and rediss:// with a host, a port and a database number", () => {
    expect(flagUrl("redis://127.0.0.1:6379").href).toBe("redis://127.0.0.1:6379");
    expect(flagUrl("rediss://cache.internal:6380/2").href).toBe("rediss://cache.internal:6380/2");
    expect(flagUrl("redis://gateway@[::1]:6379/0").username).toBe("gateway");
  });

  it.each([
    ["http://127.0.0.1:6379", 'scheme "http:"'],
    ["memory", "not a URL"],
    ["redis://", "host is missing"],
    ["redis://127.0.0.1:99999", "not a URL"],
    ["redis://127.0.0.1:6379/zero", "/DB"],
    ["redis://127.0.0.1:6379/0?family=6", "/DB"],
    ["redis://127.0.0.1:6379 ", "not a URL"],
    ["redis://127.0.0.1:6379/0\n", "not a URL"],
  ])("refuses %j as a usage error", (value, problem) => {
    expect(() => flagUrl(value)).toThrow(expect.objectContaining({ code: "TOOLWARE_CLI_USAGE" }));
    expect(() => flagUrl(value)).toThrow(problem);
  });

  it("refuses any password in the URL and never echoes it", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (tail) => {
        const secret = `Xq7${tail}`;
        const value = `redis://user:${encodeURIComponent(secret)}@127.0.0.1:6379`;
        let message = "";
        try {
          storeUrl(value, (p) => new Error(p));
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toContain(`put it in $${PASSWORD_ENV}`);
        expect(message).not.toContain(encodeURIComponent(secret));
      }),
    );
    fc.assert(
      fc.property(fc.string(), (value) => {
        let url: URL | undefined;
        try {
          url = storeUrl(value, (p) => new Error(p));
        } catch {
          return;
        }
        expect(["redis:", "rediss:"]).toContain(url.protocol);
        expect(url.password).toBe("");
      }),
    );
  });

  it("the flag wins over the config's store", () => {
    const config = { store: "redis://a:1", storePrefix: "p:", storePasswordEnv: "PW", storeTimeoutMs: 900 };
    expect(storeSettings(flagUrl("redis://b:2"), config)).toEqual({
      url: "redis://b:2",
      prefix: "p:",
      passwordEnv: "PW",
      timeoutMs: 900,
    });
    expect(storeSettings(undefined, config).url).toBe("redis://a:1");
    expect(storeSettings(undefined, {})).toEqual({});
  });
});

describe("toolware gateway --store at start", () => {
  it("a bad --store is a usage error (exit 2) that does not print the password", async () => {
    const bad = await gateway("--store", "http://127.0.0.1:6379");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--store must be redis://HOST:PORT[/DB]");
    const secret = await gateway("--store", "redis://:hunter2-secret@127.0.0.1:6379");
    expect(secret.code).toBe(2);
    expect(secret.err).toContain("must not hold a password");
    expect(secret.err).not.toContain("hunter2-secret");
  });

  it("a bad store, storePrefix or storePasswordEnv in --config is refused (exit 1) with the key", async () => {
    const cases: [object, string][] = [
      [{ store: "mysql://x" }, '"store" must be redis://'],
      [{ store: 6379 }, '"store" must be redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB], got number'],
      [{ storePrefix: "a{b}" }, '"storePrefix" must be 1 to 100 characters'],
      [{ storePrefix: "" }, '"storePrefix" must be 1 to 100 characters'],
      [{ storePasswordEnv: "1 NOT A NAME" }, '"storePasswordEnv" must name a variable'],
      [{ storeTimeoutMs: 0 }, '"storeTimeoutMs" must be a whole number of milliseconds from 1 to 60000'],
      [{ storeTimeoutMs: 1.5 }, '"storeTimeoutMs" must be a whole number'],
      [{ storeTimeoutMs: "500" }, '"storeTimeoutMs" must be a whole number'],
      [{ stor: "redis://127.0.0.1:6379" }, 'did you mean "store"?'],
    ];
    for (const [config, problem] of cases) {
      write("gateway.json", JSON.stringify(config));
      const run = await gateway("--config", "gateway.json");
      expect(run.code, problem).toBe(1);
      expect(run.err).toContain(problem);
    }
  });

  it("a Redis that does not answer stops the start with exit 1, the URL shown without the password", async () => {
    const port = await deadPort();
    process.env[PASSWORD_ENV] = "pw-from-the-environment";
    const run = await gateway("--store", `redis://127.0.0.1:${port}/3`);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`gateway: cannot connect to Redis at redis://127.0.0.1:${port}/3`);
    expect(run.err).not.toContain("pw-from-the-environment");
    // The policy file's own URL, without --store: the policy load fails, exit 1.
    write(
      "limit.yaml",
      `version: 1\ndefault: allow\nstores: { default: "redis://127.0.0.1:${port}" }\nrules:\n  - name: r\n    match: { tools: [x] }\n    packs:\n      rate-limit: { max: 1, per: 1m }\n`,
    );
    const fromFile = await inProcess(["gateway", "--policy", "limit.yaml", "--", "node"], dir);
    expect(fromFile.code).toBe(1);
    expect(fromFile.err).toContain(`cannot connect to Redis at redis://127.0.0.1:${port}`);
  });

  it("storePasswordEnv naming an unset variable is refused before any connection", async () => {
    await expect(
      openGatewayStores({ url: "redis://127.0.0.1:1", passwordEnv: "GW_STORE_PW" }, () => {}),
    ).rejects.toThrow(
      expect.objectContaining({
        code: "TOOLWARE_GATEWAY_STORE",
        message: expect.stringContaining("gateway: $GW_STORE_PW (storePasswordEnv) is not set"),
      }),
    );
  });

  it("connect.redis refuses a URL it cannot read, and close() with nothing opened is a no-op", async () => {
    const stores = await openGatewayStores({}, () => {});
    expect(stores.stores).toBeUndefined();
    await expect(stores.connect.redis?.("redis://[bad")).rejects.toThrow(
      expect.objectContaining({ code: "TOOLWARE_GATEWAY_STORE" }),
    );
    await stores.close();
  });
});
