import { defineTool, ToolHooks, ToolwareTypeError } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approver, Inbox } from "./contract.js";
import {
  createInbox,
  INBOX_ERROR_STATUS,
  inboxApproval,
  inboxHttpStatus,
  isInboxId,
  redisInboxStore,
  sqliteInboxStore,
} from "./index.js";
import { openInbox, refusal, type StoreKind, signer, sqliteKind } from "./test-utils.js";

describe("hostile and mistaken values are refused with their codes", () => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  beforeAll(async () => {
    kind = sqliteKind();
    ({ inbox, boss } = await openInbox(kind));
  });
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });
  const base = { toolName: "t", callId: "c", input: {}, caller: "x" };

  it("maps every inbox code to its HTTP status, option mistakes to 400, anything else to 500", () => {
    expect(inboxHttpStatus(Object.assign(new Error("x"), { code: "TOOLWARE_INBOX_CONFLICT" }))).toBe(500);
    expect(inboxHttpStatus(new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "x"))).toBe(400);
    expect(inboxHttpStatus(new Error("x"))).toBe(500);
    expect(INBOX_ERROR_STATUS.TOOLWARE_INBOX_CONFLICT).toBe(409);
    expect(isInboxId("req_AAAAAAAAAAAAAAAAAAAAAA")).toBe(true);
    for (const id of [
      "req_AAAAAAAAAAAAAAAAAAAAA/",
      "req_../../../etc/passwd",
      "grt_",
      5,
      "req_AAAAAAAAAAAAAAAAAAAAAA\n",
    ]) {
      expect(isInboxId(id)).toBe(false);
    }
  });

  it("submit: labels, prompts, roles, approvals, self-approval, timeouts and policy versions", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ labels: { agent: "a\nb" } }, "TOOLWARE_INBOX_INVALID"],
      [{ labels: ["x"] }, "TOOLWARE_INBOX_INVALID"],
      [{ requiredApprovals: 3 }, "TOOLWARE_INBOX_INVALID"],
      [{ allowSelfApproval: "yes" }, "TOOLWARE_INBOX_INVALID"],
      [{ timeoutMs: -1 }, "TOOLWARE_INVALID_OPTION"],
      [{ timeoutMs: Number.POSITIVE_INFINITY }, "TOOLWARE_INVALID_OPTION"],
      [{ policyVersion: "" }, "TOOLWARE_INBOX_INVALID"],
      [{ requireRole: 5 }, "TOOLWARE_INBOX_INVALID"],
      [{ caller: "x".repeat(201) }, "TOOLWARE_INBOX_INVALID"],
      [{ toolName: "" }, "TOOLWARE_INBOX_INVALID"],
    ];
    for (const [extra, code] of cases)
      expect(await refusal(inbox.submit({ ...base, ...extra } as never)), JSON.stringify(extra)).toBe(code);
    const ok = await inbox.submit({
      ...base,
      callId: "full",
      labels: { agent: "a", task: "t" },
      prompt: "Send?",
      schema: { type: "object" },
      policyVersion: "7",
    });
    expect(ok.request).toMatchObject({
      labels: { agent: "a", task: "t" },
      prompt: "Send?",
      schema: { type: "object" },
      policyVersion: "7",
    });
    expect(inbox.verify(ok.request)).toBe(true);
    expect(inbox.verify({ ...ok.request, policyVersion: "8" })).toBe(false);
  });

  it("createInbox options, approvers and list filters", async () => {
    const store = await kind.open();
    expect(() => createInbox({ store, signer: signer(), pollMs: 0 })).toThrow(/pollMs/);
    expect(() => createInbox({ store: null as never, signer: signer() })).toThrow(/store/);
    expect(() => createInbox({ store, signer: {} as never })).toThrow(/signer/);
    expect(() => createInbox({ store, signer: signer(), policyVersion: "" })).toThrow();
    expect(() => createInbox("x" as never)).toThrow(/options object/);
    expect(await refusal(inbox.approvers.add({ name: "a", roles: "admin" as never }))).toBe("TOOLWARE_INBOX_INVALID");
    expect(await refusal(inbox.approvers.add({ name: "a", token: "short" }))).toBe("TOOLWARE_INBOX_INVALID");
    expect(await refusal(inbox.approvers.add({ name: "a\u0000" }))).toBe("TOOLWARE_INBOX_INVALID");
    const chosen = await inbox.approvers.add({ name: "chosen", roles: ["r", "r"], token: "x".repeat(40) });
    expect(chosen).toMatchObject({ token: "x".repeat(40), approver: { name: "chosen", roles: ["r"] } });
    expect((await inbox.approvers.list()).map((a) => a.name)).toEqual(["boss", "chosen", "ops"]);
    expect(JSON.stringify(await store.listApprovers())).not.toContain("x".repeat(40));
    expect(await inbox.approvers.authenticate(5 as never)).toBeUndefined();
    for (const filter of [
      { since: Number.NaN },
      { limit: 0 },
      { limit: 1001 },
      { toolName: "" },
      { stat: "pending" },
    ]) {
      expect(await refusal(inbox.list(filter as never)), JSON.stringify(filter)).toMatch(
        /^TOOLWARE_(INBOX_INVALID|UNKNOWN_OPTION)$/,
      );
    }
    expect(() => inbox.subscribe("x" as never)).toThrow(/listener/);
    expect(() => redisInboxStore({ client: {} as never })).toThrow(/ioredis/);
    expect(() => sqliteInboxStore({ file: "" })).toThrow(/file/);
  });

  it("decide and edit: a missing request, a non-boolean answer, an oversized reason, an edit that changes nothing", async () => {
    const { request } = await inbox.submit({ ...base, callId: "d" });
    const d = request.binding.digest;
    expect(
      await refusal(inbox.decide("req_AAAAAAAAAAAAAAAAAAAAAA", { approver: boss, approve: true, digest: d })),
    ).toBe("TOOLWARE_INBOX_NOT_FOUND");
    expect(await refusal(inbox.decide(request.id, { approver: boss, approve: "yes" as never, digest: d }))).toBe(
      "TOOLWARE_INBOX_INVALID",
    );
    expect(
      await refusal(inbox.decide(request.id, { approver: boss, approve: false, reason: "x".repeat(2001), digest: d })),
    ).toBe("TOOLWARE_INBOX_INVALID");
    expect(
      await refusal(inbox.decide(request.id, { approver: boss, approve: true, digest: d, extra: 1 } as never)),
    ).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(await refusal(inbox.edit(request.id, { approver: boss, input: {}, digest: d }))).toBe(
      "TOOLWARE_INBOX_INVALID",
    );
    expect(await refusal(inbox.edit(request.id, { approver: boss, input: { f: Number.NaN }, digest: d }))).toBe(
      "TOOLWARE_UNBINDABLE_INPUT",
    );
    expect(await refusal(inbox.wait(request.id, { heartbeatMs: 1 }))).toBe("TOOLWARE_INVALID_OPTION");
    expect((await inbox.get(request.id))?.state).toBe("pending");
  });

  it("an edit of a two-approver request waits for a second approver on the new request", async () => {
    const { request } = await inbox.submit({ ...base, callId: "two", requiredApprovals: 2 });
    const { next } = await inbox.edit(request.id, { approver: boss, input: { a: 1 }, digest: request.binding.digest });
    expect(next).toMatchObject({ state: "pending", votes: [{ approver: "boss" }], editedFrom: request.id });
    const settled = inbox.wait(request.id);
    const ops = await inbox.approvers.add({ name: "ops2" });
    await inbox.decide(next.id, { approver: ops.approver, approve: true, digest: next.binding.digest });
    await expect(settled).resolves.toMatchObject({
      outcome: "approved",
      input: { a: 1 },
      request: { decision: { approvers: ["boss", "ops2"] } },
    });
  });

  it("grants: a condition must be scalars, a ttl at most a year, an unknown grant is not found; lists match", async () => {
    const g = (extra: Record<string, unknown>) =>
      inbox.grants.create({ approver: boss, toolName: "g", ttlMs: 1000, ...extra } as never);
    expect(await refusal(g({ where: { to: { $ne: 1 } } }))).toBe("TOOLWARE_INBOX_INVALID");
    expect(await refusal(g({ where: [] }))).toBe("TOOLWARE_INBOX_INVALID");
    expect(await refusal(g({ ttlMs: 0 }))).toBe("TOOLWARE_INBOX_INVALID");
    expect(await refusal(g({ approver: { name: "boss", roles: [] } }))).toBe("TOOLWARE_INBOX_UNAUTHORIZED");
    expect(await refusal(inbox.grants.revoke("grt_AAAAAAAAAAAAAAAAAAAAAA", boss))).toBe("TOOLWARE_INBOX_NOT_FOUND");
    expect(await refusal(inbox.grants.revoke("../x", boss))).toBe("TOOLWARE_INBOX_NOT_FOUND");
    const grant = await g({ where: { n: [1, 2], urgent: true, to: "a?b*" }, reason: "on call" });
    const submit = (callId: string, input: unknown) => inbox.submit({ toolName: "g", callId, input, caller: "x" });
    expect((await submit("g1", { n: 2, urgent: true, to: "a?bc" })).request).toMatchObject({
      state: "approved",
      decision: { reason: "on call", grantId: grant.id },
    });
    expect((await submit("g2", { n: 3, urgent: true, to: "a?b" })).request.state).toBe("pending");
    expect((await submit("g3", { n: 1, urgent: true, to: "axb" })).request.state).toBe("pending");
    expect((await submit("g4", ["n"])).request.state).toBe("pending");
    // The granter's own calls still need someone else.
    expect(
      (await inbox.submit({ toolName: "g", callId: "g5", input: { n: 1, urgent: true, to: "a?b" }, caller: "boss" }))
        .request.state,
    ).toBe("pending");
  });

  it('the gate: "defer" replays a rejection, and an inbox that refuses the call denies it with the reason', async () => {
    const ran: unknown[] = [];
    const tool = defineTool({ name: "send", execute: (input: unknown) => void ran.push(input) });
    const hooks = new ToolHooks();
    hooks.use(approval({ ...inboxApproval({ inbox, mode: "defer" }) }));
    expect((await hooks.invoke(tool, { to: "x" }, { callId: "gd" })).status).toBe("blocked");
    const [request] = await inbox.list({ toolName: "send" });
    await inbox.decide(request?.id as string, {
      approver: boss,
      approve: false,
      reason: "no",
      digest: request?.binding.digest as string,
    });
    expect(await hooks.invoke(tool, { to: "x" }, { callId: "gd" })).toMatchObject({
      status: "blocked",
      reason: "send was not approved: no",
    });
    const strict = new ToolHooks();
    strict.use(approval({ ...inboxApproval({ inbox, mode: "wait", caller: "x".repeat(300) }) }));
    expect((await strict.invoke(tool, { to: "y" }, { callId: "gw" })).reason).toMatch(
      /the inbox refused the call: .*caller/,
    );
    expect(ran).toEqual([]);
    expect(() => inboxApproval({ inbox: {} as never, mode: "wait" })).toThrow(/inbox/);
    expect(() => inboxApproval({ inbox, mode: "wait", timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});
