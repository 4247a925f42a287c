import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox } from "../contract.js";
import { openInbox, sqliteKind } from "../test-utils.js";
import { inboxWebhooks, signWebhook, verifyWebhook } from "./index.js";

const SECRET = "webhook secret of more than 32 characters";
const kind = sqliteKind();
let inbox: Inbox;
let boss: Awaited<ReturnType<typeof openInbox>>["boss"];
const got: { signature: string; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = "";
  req.on("data", (d: Buffer) => {
    body += d.toString();
  });
  req.on("end", () => {
    got.push({ signature: String(req.headers["x-toolware-signature"]), body });
    res.end("ok");
  });
});
let url = "";

beforeAll(async () => {
  ({ inbox, boss } = await openInbox(kind));
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver.close();
  await inbox.close();
  await kind.stop();
});

async function until(count: number) {
  for (let i = 0; i < 200 && got.length < count; i++) await new Promise((r) => setTimeout(r, 10));
}

describe("inboxWebhooks", () => {
  it("posts a signed event when a request waits and when it is decided; verifyWebhook refuses tampering", async () => {
    got.length = 0;
    const stop = inboxWebhooks({ inbox, url, secret: SECRET });
    const { request } = await inbox.submit({ toolName: "send_email", callId: "w1", input: { to: "a" }, caller: "bot" });
    await inbox.decide(request.id, { approver: boss, approve: false, reason: "no", digest: request.binding.digest });
    await until(2);
    stop();
    expect(got.map((g) => JSON.parse(g.body).type)).toEqual(["request", "decision"]);
    const first = got[0] as { signature: string; body: string };
    expect(verifyWebhook(SECRET, first.signature, first.body)).toBe(true);
    expect(verifyWebhook(SECRET, first.signature, first.body.replace("send_email", "send_emaiL"))).toBe(false);
    expect(verifyWebhook("another secret of more than 32 chars", first.signature, first.body)).toBe(false);
    const old = signWebhook(SECRET, first.body, Date.now() - 3_600_000);
    expect(verifyWebhook(SECRET, old, first.body)).toBe(false);
    expect(first.body).not.toContain('"to"');
  });

  it("sends a Slack-compatible message with the slack preset, and stops when unsubscribed", async () => {
    got.length = 0;
    const stop = inboxWebhooks({ inbox, url, secret: SECRET, preset: "slack" });
    await inbox.submit({ toolName: "deploy", callId: "w2", input: {}, caller: "bot" });
    await until(1);
    stop();
    const msg = JSON.parse((got[0] as { body: string }).body);
    expect(msg.text).toMatch(/deploy from bot waits for approval/);
    expect(msg.blocks[0].type).toBe("section");
    await inbox.submit({ toolName: "deploy", callId: "w3", input: {}, caller: "bot" });
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toHaveLength(1);
  });

  it("reports a failed delivery and refuses bad options", async () => {
    const errors: unknown[] = [];
    const stop = inboxWebhooks({
      inbox,
      url: `${url.replace(/:\d+\//, ":1/")}`,
      secret: SECRET,
      onError: (e) => errors.push(e),
    });
    await inbox.submit({ toolName: "deploy", callId: "w4", input: {}, caller: "bot" });
    for (let i = 0; i < 200 && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    stop();
    expect(errors).toHaveLength(1);
    expect(() => inboxWebhooks({ inbox, url, secret: "short" })).toThrow(/32/);
    expect(() => inboxWebhooks({ inbox, url: "file:///etc/passwd", secret: SECRET })).toThrow(/http/);
    expect(() => inboxWebhooks({ inbox, url, secret: SECRET, preset: "teams" as never })).toThrow(/preset/);
    expect(() => inboxWebhooks({ inbox, url, secret: SECRET, secrte: 1 } as never)).toThrow(/did you mean "secret"/);
  });
});
