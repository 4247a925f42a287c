import { digestArguments } from "@toolware/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approver, Inbox, InboxEvent, InboxRequest } from "./contract.js";
import { createInbox } from "./inbox.js";
import { createSigner } from "./signer.js";
import { codeOf, openInbox, redisKind, refusal, type StoreKind, signer, sqliteKind } from "./test-utils.js";

const mail = (to: string) => ({ to, subject: "hi", body: "hello" });
let n = 0;
const callId = () => `call_${++n}_${Math.random().toString(36).slice(2, 8)}`;

describe.each([
  ["sqlite", sqliteKind],
  ["redis", redisKind],
] as const)("the inbox on %s", (_name, make) => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  let ops: Approver;
  let tokens: Record<string, string>;
  const submit = (extra: Record<string, unknown> = {}) =>
    inbox.submit({
      toolName: "send_email",
      callId: callId(),
      input: mail("a@example.com"),
      caller: "mailer",
      ...extra,
    });

  beforeAll(async () => {
    kind = make();
    ({ inbox, boss, ops, tokens } = await openInbox(kind));
  }, 30_000);
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });

  it("issues a signed pending request bound to the call; the same call joins it, other arguments get another", async () => {
    const id = callId();
    const first = await inbox.submit({
      toolName: "send_email",
      callId: id,
      input: mail("a@example.com"),
      caller: "mailer",
    });
    expect(first.created).toBe(true);
    expect(first.request).toMatchObject({ state: "pending", caller: "mailer", policyVersion: "1", kid: "k1" });
    expect(first.request.binding).toEqual({
      toolName: "send_email",
      callId: id,
      digest: digestArguments(mail("a@example.com")),
    });
    expect(inbox.verify(first.request)).toBe(true);
    expect(first.url).toBe(`http://127.0.0.1:7717/requests/${first.request.id}`);
    const again = await inbox.submit({
      toolName: "send_email",
      callId: id,
      input: { body: "hello", subject: "hi", to: "a@example.com" },
      caller: "mailer",
    });
    expect(again).toMatchObject({ created: false, request: { id: first.request.id } });
    const other = await inbox.submit({
      toolName: "send_email",
      callId: id,
      input: mail("b@example.com"),
      caller: "mailer",
    });
    expect(other.request.id).not.toBe(first.request.id);
    // A request whose claims were changed after signing is not this server's.
    expect(inbox.verify({ ...first.request, caller: "someone-else" })).toBe(false);
    expect(inbox.verify({ ...first.request, binding: other.request.binding })).toBe(false);
  });

  it("an approval reaches the waiting call; a second decision is a conflict and changes nothing", async () => {
    const { request } = await submit();
    const waiting = inbox.wait(request.id);
    const decided = await inbox.decide(request.id, { approver: boss, approve: true, digest: request.binding.digest });
    expect(decided.state).toBe("approved");
    expect(decided.decision).toMatchObject({ outcome: "approved", approvers: ["boss"] });
    await expect(waiting).resolves.toMatchObject({ outcome: "approved", input: mail("a@example.com") });
    expect(
      await refusal(inbox.decide(request.id, { approver: ops, approve: false, digest: request.binding.digest })),
    ).toBe("TOOLWARE_INBOX_CONFLICT");
    expect((await inbox.get(request.id))?.state).toBe("approved");
  });

  it("a rejection's reason reaches the waiting call", async () => {
    const { request } = await submit();
    const waiting = inbox.wait(request.id);
    await inbox.decide(request.id, {
      approver: ops,
      approve: false,
      reason: "not to customers",
      digest: request.binding.digest,
    });
    await expect(waiting).resolves.toMatchObject({ outcome: "denied", reason: "not to customers" });
  });

  it("refuses a decision for other arguments, and the request stays pending", async () => {
    const { request } = await submit();
    const digest = digestArguments(mail("evil@example.com"));
    expect(await refusal(inbox.decide(request.id, { approver: boss, approve: true, digest }))).toBe(
      "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
    );
    expect((await inbox.get(request.id))?.state).toBe("pending");
  });

  it("refuses an approver this inbox did not authenticate, a wrong token, a wrong role and self-approval", async () => {
    const { request } = await submit({ requireRole: "finance" });
    const d = request.binding.digest;
    const forged = { name: "boss", roles: ["finance"] };
    expect(await refusal(inbox.decide(request.id, { approver: forged, approve: true, digest: d }))).toBe(
      "TOOLWARE_INBOX_UNAUTHORIZED",
    );
    expect(await inbox.approvers.authenticate(`${tokens.boss}x`)).toBeUndefined();
    expect(await inbox.approvers.authenticate("")).toBeUndefined();
    expect((await inbox.approvers.authenticate(tokens.boss as string))?.name).toBe("boss");
    expect(await refusal(inbox.decide(request.id, { approver: ops, approve: true, digest: d }))).toBe(
      "TOOLWARE_INBOX_FORBIDDEN",
    );
    const mine = await inbox.submit({ toolName: "send_email", callId: callId(), input: {}, caller: "boss" });
    expect(
      await refusal(
        inbox.decide(mine.request.id, { approver: boss, approve: true, digest: mine.request.binding.digest }),
      ),
    ).toBe("TOOLWARE_INBOX_FORBIDDEN");
    const allowed = await inbox.submit({
      toolName: "send_email",
      callId: callId(),
      input: {},
      caller: "boss",
      allowSelfApproval: true,
    });
    expect(
      (
        await inbox.decide(allowed.request.id, {
          approver: boss,
          approve: true,
          digest: allowed.request.binding.digest,
        })
      ).state,
    ).toBe("approved");
    expect((await inbox.get(request.id))?.state).toBe("pending");
  });

  it("a removed approver can no longer decide", async () => {
    const temp = await inbox.approvers.add({ name: "temp" });
    expect(await inbox.approvers.remove("temp")).toBe(true);
    const { request } = await submit();
    expect(
      await refusal(
        inbox.decide(request.id, { approver: temp.approver, approve: true, digest: request.binding.digest }),
      ),
    ).toBe("TOOLWARE_INBOX_UNAUTHORIZED");
  });

  it("a two-approver request needs two different approvers", async () => {
    const { request } = await submit({ requiredApprovals: 2 });
    const d = request.binding.digest;
    const once = await inbox.decide(request.id, { approver: boss, approve: true, digest: d });
    expect(once).toMatchObject({ state: "pending", votes: [{ approver: "boss" }] });
    expect(await refusal(inbox.decide(request.id, { approver: boss, approve: true, digest: d }))).toBe(
      "TOOLWARE_INBOX_CONFLICT",
    );
    const twice = await inbox.decide(request.id, { approver: ops, approve: true, digest: d });
    expect(twice.decision?.approvers).toEqual(["boss", "ops"]);
    expect(inbox.verify(twice)).toBe(true);
  });

  it("two approvers deciding at once through two inboxes on one store: exactly one wins", async () => {
    const other = createInbox({ store: await kind.open(), signer: signer(), pollMs: 5 });
    const opsThere = await other.approvers.authenticate(tokens.ops as string);
    for (let round = 0; round < 10; round++) {
      const { request } = await submit();
      const d = request.binding.digest;
      const results = await Promise.allSettled([
        inbox.decide(request.id, { approver: boss, approve: true, digest: d }),
        other.decide(request.id, { approver: opsThere as Approver, approve: false, digest: d }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled") as PromiseFulfilledResult<InboxRequest>[];
      expect(won).toHaveLength(1);
      expect(codeOf((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason)).toBe(
        "TOOLWARE_INBOX_CONFLICT",
      );
      expect((await inbox.get(request.id))?.state).toBe(won[0]?.value.state);
    }
  });

  it("edit then approve: a new request bound to the new arguments, the old one edited and linked", async () => {
    const { request, resumeToken } = await submit();
    const waiting = inbox.wait(request.id);
    const { edited, next } = await inbox.edit(request.id, {
      approver: boss,
      input: mail("ops@example.com"),
      digest: request.binding.digest,
    });
    expect(edited).toMatchObject({ state: "edited", decision: { editedTo: next.id } });
    expect(next).toMatchObject({ state: "approved", editedFrom: request.id, input: mail("ops@example.com") });
    expect(next.binding).toEqual({ ...request.binding, digest: digestArguments(mail("ops@example.com")) });
    await expect(waiting).resolves.toMatchObject({
      outcome: "approved",
      input: mail("ops@example.com"),
      request: { id: next.id },
    });
    // The call comes back with its own arguments: the edit's arguments are what it gets, once.
    const call = { toolName: "send_email", callId: request.binding.callId, input: mail("a@example.com") };
    expect(await inbox.resume(resumeToken, call)).toMatchObject({ kind: "approved", input: mail("ops@example.com") });
    expect((await inbox.resume(resumeToken, call)).kind).toBe("consumed");
    expect(
      await refusal(
        inbox.edit(request.id, { approver: boss, input: mail("x@example.com"), digest: request.binding.digest }),
      ),
    ).toBe("TOOLWARE_INBOX_CONFLICT");
  });

  it("resume tokens: a forged or foreign token is refused, a pending one says so, an approval applies once", async () => {
    const { request, resumeToken } = await submit();
    const call = { toolName: "send_email", callId: request.binding.callId, input: mail("a@example.com") };
    expect(await inbox.resume(resumeToken, call)).toMatchObject({ kind: "pending", request: { id: request.id } });
    const stranger = createSigner({
      keys: [{ kid: "k1", alg: "HS256", secret: "another secret of more than thirty-two bytes" }],
    });
    const [body] = resumeToken.split(".");
    expect(await refusal(inbox.resume(`${body}.${stranger.sign(`toolware-inbox-resume-v1.${body}`)}`, call))).toBe(
      "TOOLWARE_INBOX_FORGED",
    );
    expect(await refusal(inbox.resume("nonsense", call))).toBe("TOOLWARE_INBOX_FORGED");
    expect(await refusal(inbox.resume(resumeToken, { ...call, input: mail("evil@example.com") }))).toBe(
      "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
    );
    expect(await refusal(inbox.resume(resumeToken, { ...call, callId: "another" }))).toBe(
      "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
    );
    await inbox.decide(request.id, { approver: boss, approve: true, digest: request.binding.digest });
    const [a, b] = await Promise.all([inbox.resume(resumeToken, call), inbox.resume(resumeToken, call)]);
    expect([a.kind, b.kind].sort()).toEqual(["approved", "consumed"]);
  });

  it("a decision written into the store without the server's signature is refused by the waiting call", async () => {
    const store = await kind.open();
    const { request } = await submit();
    const waiting = inbox.wait(request.id);
    const fake: InboxRequest = {
      ...request,
      state: "approved",
      revision: request.revision + 1,
      decision: {
        outcome: "approved",
        approvers: ["boss"],
        reason: undefined,
        at: Date.now(),
        grantId: undefined,
        editedTo: undefined,
        signature: "k1.AAAA",
      },
    };
    expect(await store.update(fake, request.revision)).toBe(true);
    expect(await refusal(waiting)).toBe("TOOLWARE_INBOX_FORGED");
  });

  it("time-boxed grants approve matching calls without asking, are recorded and revocable", async () => {
    const events: InboxEvent[] = [];
    const stop = inbox.subscribe((e) => events.push(e));
    const grant = await inbox.grants.create({
      approver: boss,
      toolName: "send_email",
      where: { to: "*@example.com" },
      ttlMs: 60_000,
    });
    expect(events).toContainEqual({ type: "grant", grant });
    const granted = await submit();
    expect(granted.request).toMatchObject({ state: "approved", decision: { grantId: grant.id, approvers: [] } });
    expect(inbox.verify(granted.request)).toBe(true);
    const outside = await inbox.submit({
      toolName: "send_email",
      callId: callId(),
      input: mail("a@evil.com"),
      caller: "mailer",
    });
    expect(outside.request.state).toBe("pending");
    const two = await submit({ requiredApprovals: 2 });
    expect(two.request.state).toBe("pending");
    expect((await inbox.grants.list()).map((g) => g.id)).toContain(grant.id);
    await inbox.grants.revoke(grant.id, ops);
    expect(await refusal(inbox.grants.revoke(grant.id, ops))).toBe("TOOLWARE_INBOX_CONFLICT");
    expect((await submit()).request.state).toBe("pending");
    expect((await inbox.grants.list()).map((g) => g.id)).not.toContain(grant.id);
    expect((await inbox.grants.list({ all: true })).find((g) => g.id === grant.id)?.revokedBy).toBe("ops");
    stop();
    const seen = events.length;
    await submit();
    expect(events.length).toBe(seen);
  });

  it("lists with filters, newest first", async () => {
    const tool = `list_${Math.random().toString(36).slice(2)}`;
    const a = await inbox.submit({ toolName: tool, callId: callId(), input: {}, caller: "x" });
    const b = await inbox.submit({ toolName: tool, callId: callId(), input: {}, caller: "y" });
    await inbox.decide(a.request.id, { approver: boss, approve: false, digest: a.request.binding.digest });
    expect((await inbox.list({ toolName: tool })).map((r) => r.id).sort()).toEqual([a.request.id, b.request.id].sort());
    expect((await inbox.list({ toolName: tool, state: "pending" })).map((r) => r.id)).toEqual([b.request.id]);
    expect((await inbox.list({ toolName: tool, caller: "x" })).map((r) => r.id)).toEqual([a.request.id]);
    expect(await refusal(inbox.list({ state: "nope" as never }))).toBe("TOOLWARE_INBOX_INVALID");
  });
});
