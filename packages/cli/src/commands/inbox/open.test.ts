import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInbox, createSigner, sqliteInboxStore } from "@toolware/inbox";
import { verifyWebhook } from "@toolware/inbox/server";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { EXIT } from "../kit.js";
import { inProcess, scratch, started } from "../test-fixtures.js";
import { redactUrl } from "./open.js";
import { freePort, KEYS, KEYS_ENV, SECRET, startRedis } from "./test-fixtures.js";

const { dir } = scratch("toolware-cli-inbox-open-");
const tw = (...argv: string[]) => inProcess(argv, dir);
const HOOK_SECRET = "a webhook secret of more than thirty-two characters";

afterEach(() => vi.unstubAllEnvs());

describe("toolware inbox: what it opens, in this process", () => {
  it("fails to start, exit 1, on a store or audit file it cannot open, a port in use, an address not here", async () => {
    vi.stubEnv(KEYS_ENV, KEYS);
    expect((await tw("inbox", "--store", "sqlite:/nonexistent-dir/x.db")).err).toMatch(
      /^toolware: inbox: cannot open the SQLite store \/nonexistent-dir\/x\.db: /,
    );
    const db = ["--store", `sqlite:${join(dir, "a.db")}`];
    expect(await tw("inbox", ...db, "--audit", "/nonexistent-dir/audit.jsonl")).toMatchObject({
      code: EXIT.failure,
      err: expect.stringMatching(/^toolware: inbox: cannot open the audit file \/nonexistent-dir\/audit\.jsonl: /),
    });
    const port = await freePort();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    try {
      const busy = started(["inbox", ...db, "--port", String(port)], dir);
      expect(await busy.code).toBe(EXIT.failure);
      expect(busy.err()).toBe(
        `toolware: inbox: cannot listen on 127.0.0.1:${port}: the port is in use (another inbox?); choose another with --port\n`,
      );
    } finally {
      taken.close();
    }
    // 192.0.2.1 is TEST-NET-1: never an address of this machine, and binding it sends nothing.
    const elsewhere = started(["inbox", ...db, "--host", "192.0.2.1", "--port", "0"], dir);
    expect(await elsewhere.code).toBe(EXIT.failure);
    expect(elsewhere.err()).toMatch(
      /^toolware: inbox: cannot listen on 192\.0\.2\.1:0: no such address on this machine \(--host\): /,
    );
  });

  it("posts a signed webhook when a request is decided over the API", async () => {
    vi.stubEnv(KEYS_ENV, KEYS);
    vi.stubEnv("HOOK_SECRET_FOR_TEST", HOOK_SECRET);
    const received: { body: string; signature: unknown }[] = [];
    const receiver = createHttpServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => {
        body += d.toString("utf8");
      });
      req.on("end", () => {
        received.push({ body, signature: req.headers["x-toolware-signature"] });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const db = join(dir, "hooks.db");
    const added = await tw("inbox", "approver", "add", "dana", "--store", `sqlite:${db}`, "--json");
    const { token } = JSON.parse(added.out) as { token: string };
    const config = join(dir, "hooks.yaml");
    (await import("node:fs")).writeFileSync(
      config,
      `store: "sqlite:hooks.db"\nport: 0\nwebhooks:\n  - url: ${hookUrl}\n    secretEnv: HOOK_SECRET_FOR_TEST\n    timeoutMs: 2000\n`,
    );
    const serving = started(["inbox", "--config", "hooks.yaml"], dir);
    try {
      await vi.waitFor(() => expect(serving.out()).toMatch(/listening on /), { timeout: 10_000 });
      const url = /listening on (\S+)/.exec(serving.out())?.[1] as string;
      const agent = createInbox({
        store: sqliteInboxStore({ file: db }),
        signer: createSigner({ keys: [{ kid: "k1", alg: "HS256", secret: SECRET }] }),
      });
      const { request } = await agent.submit({
        toolName: "deploy",
        callId: "d1",
        input: { env: "prod" },
        caller: "ci",
      });
      const res = await fetch(`${url}/api/requests/${request.id}/reject`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ digest: request.binding.digest, reason: "freeze" }),
      });
      expect(res.status).toBe(200);
      await agent.close();
      await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 5000 });
      const [hook] = received;
      expect(JSON.parse(hook?.body as string)).toMatchObject({ type: "decision", id: request.id, state: "denied" });
      expect(verifyWebhook(HOOK_SECRET, hook?.signature, hook?.body as string)).toBe(true);
    } finally {
      serving.stop();
      expect(await serving.code).toBe(EXIT.ok);
      receiver.close();
    }
  });

  describe("on Redis", () => {
    const redis = startRedis();
    afterAll(async () => (await redis).stop());

    it("adds, lists and removes approvers in Redis, and refuses a Redis that does not answer", async () => {
      const { url } = await redis;
      const store = ["--store", url];
      expect((await tw("inbox", "approver", "add", "erin", "--role", "ops", ...store)).code).toBe(0);
      expect((await tw("inbox", "approver", "list", ...store)).out).toBe("erin  ops\n");
      expect((await tw("inbox", "approver", "remove", "erin", ...store)).code).toBe(0);
      const port = await freePort();
      expect(await tw("inbox", "approver", "list", "--store", `redis://127.0.0.1:${port}`)).toMatchObject({
        code: EXIT.failure,
        err: expect.stringMatching(
          new RegExp(`^toolware: inbox: cannot connect to Redis at redis://127\\.0\\.0\\.1:${port}: `),
        ),
      });
    });
  });

  it("never prints a Redis password", () => {
    expect(redactUrl("redis://user:s3cret@h:6379/0")).toBe("redis://user:***@h:6379/0");
    expect(redactUrl("rediss://s3cret@h")).toBe("rediss://***@h");
    expect(redactUrl("redis://h:6379")).toBe("redis://h:6379");
  });
});
