import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createInbox } from "./inbox.js";
import { sqliteInboxStore } from "./sqlite-store.js";
import { redisKind, refusal, type StoreKind, signer, sqliteKind, tempDir } from "./test-utils.js";

const mail = { to: "a@example.com" };

describe.each([
  ["sqlite", sqliteKind],
  ["redis", redisKind],
] as const)("deadlines and restarts on %s", (_name, make) => {
  let kind: StoreKind | undefined;
  afterEach(async () => {
    await kind?.stop();
  });

  it("a decision after the deadline is refused; the waiting call gets expired", async () => {
    kind = make();
    let now = 1_000_000;
    const inbox = createInbox({ store: await kind.open(), signer: signer(), now: () => now, pollMs: 5 });
    const { approver } = await inbox.approvers.add({ name: "boss" });
    const { request } = await inbox.submit({
      toolName: "send_email",
      callId: "c1",
      input: mail,
      caller: "mailer",
      timeoutMs: 1000,
    });
    const waiting = inbox.wait(request.id);
    now += 1000;
    expect(await refusal(inbox.decide(request.id, { approver, approve: true, digest: request.binding.digest }))).toBe(
      "TOOLWARE_INBOX_EXPIRED",
    );
    await expect(waiting).resolves.toMatchObject({ outcome: "expired" });
    expect((await inbox.get(request.id))?.decision).toMatchObject({ outcome: "expired", approvers: [] });
    // Retried with the same id and arguments, the call joins the settled request: its decision is replayed.
    expect(await inbox.submit({ toolName: "send_email", callId: "c1", input: mail, caller: "mailer" })).toMatchObject({
      created: false,
      request: { state: "expired" },
    });
  });

  it("expire() settles every pending request past its deadline", async () => {
    kind = make();
    let now = 5_000;
    const inbox = createInbox({ store: await kind.open(), signer: signer(), now: () => now });
    await inbox.submit({ toolName: "t", callId: "a", input: {}, caller: "x", timeoutMs: 10 });
    await inbox.submit({ toolName: "t", callId: "b", input: {}, caller: "x", timeoutMs: 10_000 });
    now += 100;
    expect(await inbox.expire()).toBe(1);
    expect((await inbox.list({ state: "pending" })).map((r) => r.binding.callId)).toEqual(["b"]);
  });

  it("a restart loses nothing: the pending request is there and decidable, and a waiting call in another inbox gets it", async () => {
    kind = make();
    const first = createInbox({ store: await kind.open(), signer: signer() });
    const { token } = await first.approvers.add({ name: "boss" });
    const { request } = await first.submit({ toolName: "send_email", callId: "c1", input: mail, caller: "mailer" });
    await first.close();
    const agent = createInbox({ store: await kind.open(), signer: signer(), pollMs: 5 });
    const waiting = agent.wait(request.id);
    const second = createInbox({ store: await kind.open(), signer: signer() });
    expect((await second.get(request.id))?.state).toBe("pending");
    const boss = await second.approvers.authenticate(token);
    await second.decide(request.id, { approver: boss as never, approve: true, digest: request.binding.digest });
    await expect(waiting).resolves.toMatchObject({ outcome: "approved" });
  });

  it("the call's signal stops a wait; heartbeats come while it waits", async () => {
    kind = make();
    const inbox = createInbox({ store: await kind.open(), signer: signer() });
    const { request } = await inbox.submit({ toolName: "t", callId: "s", input: {}, caller: "x" });
    const controller = new AbortController();
    const beats: string[] = [];
    const waiting = inbox.wait(request.id, {
      signal: controller.signal,
      heartbeatMs: 10,
      onHeartbeat: (r) => beats.push(r.id),
    });
    await new Promise((r) => setTimeout(r, 60));
    controller.abort(new Error("stop"));
    await expect(waiting).rejects.toThrow("stop");
    expect(beats.length).toBeGreaterThan(0);
    expect(beats.every((id) => id === request.id)).toBe(true);
  });
});

describe("the SQLite store", () => {
  it("refuses unknown options with a hint, and a closed store answers no more", async () => {
    expect(() => sqliteInboxStore({ fiel: "x" } as never)).toThrow(/did you mean "file"/);
    const { dir, remove } = tempDir();
    const store = sqliteInboxStore({ file: join(dir, "x.db") });
    await store.close();
    expect(await refusal(store.get("req_AAAAAAAAAAAAAAAAAAAAAA"))).toBe("TOOLWARE_INBOX_STORE");
    remove();
  });

  it("createInbox and submit refuse typos and hostile values", async () => {
    const { dir, remove } = tempDir();
    const store = sqliteInboxStore({ file: join(dir, "x.db") });
    expect(() => createInbox({ store, signer: signer(), timeoutMS: 5 } as never)).toThrow(/did you mean "timeoutMs"/);
    expect(() => createInbox({ store, signer: signer(), baseUrl: "javascript:alert(1)" })).toThrow(/baseUrl/);
    const inbox = createInbox({ store, signer: signer() });
    expect(
      await refusal(inbox.submit({ toolName: "t", callId: "c", input: {}, caller: "x", requiredAprovals: 2 } as never)),
    ).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(await refusal(inbox.submit({ toolName: "t", callId: "c\r\nX-Evil: 1", input: {}, caller: "x" }))).toBe(
      "TOOLWARE_INBOX_INVALID",
    );
    expect(await refusal(inbox.submit({ toolName: "t", callId: "c", input: { f: () => 1 }, caller: "x" }))).toBe(
      "TOOLWARE_UNBINDABLE_INPUT",
    );
    expect(await inbox.get("../../etc/passwd")).toBeUndefined();
    expect(await refusal(inbox.decide("../x", { approver: {} as never, approve: true, digest: "" }))).toBe(
      "TOOLWARE_INBOX_UNAUTHORIZED",
    );
    expect(await refusal(inbox.wait("../x"))).toBe("TOOLWARE_INBOX_NOT_FOUND");
    await inbox.close();
    remove();
  });
});
