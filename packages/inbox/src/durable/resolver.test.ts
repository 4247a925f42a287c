import { bindApproval, defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approver, Inbox, InboxRequest } from "../contract.js";
import { inboxApproval } from "../gate.js";
import { openInbox, type StoreKind, sqliteKind } from "../test-utils.js";
import { aiSdkResponses, langGraphResume, resolveRunState } from "./frameworks.js";
import { type InboxResolver, inboxResolver } from "./resolver.js";

describe("inboxResolver and the framework helpers: strict options, hostile shapes fail closed", () => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  let resolver: InboxResolver;
  beforeAll(async () => {
    kind = sqliteKind();
    ({ inbox, boss } = await openInbox(kind));
    resolver = inboxResolver({ inbox, caller: "mailer", timeoutMs: 60_000 });
  });
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });

  it("refuses typos and a missing inbox, in the resolver and the gate", async () => {
    expect(() => inboxResolver({ inbox, calller: "x" } as never)).toThrow(/did you mean "caller"/);
    expect(() => inboxResolver({} as never)).toThrow(/needs `inbox`/);
    expect(() => inboxResolver({ inbox, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => inboxApproval({ inbox, mode: "defer", handof: "ask" } as never)).toThrow(/did you mean "handoff"/);
    expect(() => inboxApproval({ inbox, mode: "defer", handoff: "later" } as never)).toThrow(/handoff/);
    expect(() => inboxApproval({ inbox, mode: "wait", handoff: "ask" })).toThrow(/goes with `mode: "defer"`/);
    await expect(resolver.status({ toolName: "t", callId: "c", input: {}, extra: 1 } as never)).rejects.toThrow(
      /did you mean|has no option/,
    );
  });

  it("status: pending, then approved (looking never uses the approval), denied with the reason, an edit", async () => {
    const call = { toolName: "send_email", callId: "s1", input: { to: "a@example.com" } };
    const first = await resolver.status(call);
    expect(first).toMatchObject({ kind: "pending", url: expect.stringContaining("/requests/req_") });
    const r = (await inbox.get(first.requestId as string)) as InboxRequest;
    expect(r.caller).toBe("mailer");
    await inbox.decide(r.id, { approver: boss, approve: true, digest: r.binding.digest });
    expect(await resolver.status(call)).toMatchObject({ kind: "approved", edited: false });
    expect(await resolver.status(call)).toMatchObject({ kind: "approved" });
    const other = { ...call, callId: "s2" };
    const p2 = (await inbox.get((await resolver.status(other)).requestId as string)) as InboxRequest;
    await inbox.decide(p2.id, { approver: boss, approve: false, reason: "no", digest: p2.binding.digest });
    expect(await resolver.status(other)).toEqual({ kind: "denied", requestId: p2.id, reason: "no" });
    const third = { ...call, callId: "s3" };
    const p3 = (await inbox.get((await resolver.status(third)).requestId as string)) as InboxRequest;
    await inbox.edit(p3.id, { approver: boss, input: { to: "b@example.com" }, digest: p3.binding.digest });
    expect(await resolver.status(third)).toMatchObject({
      kind: "approved",
      edited: true,
      input: { to: "b@example.com" },
    });
  });

  it("the helpers take any junk without throwing, and decide nothing from it", async () => {
    const junk = fc.oneof(
      fc.anything(),
      fc.array(fc.record({ role: fc.string(), content: fc.array(fc.object()) })),
      fc.array(fc.record({ id: fc.string(), value: fc.object() })),
    );
    await fc.assert(
      fc.asyncProperty(junk, async (value) => {
        expect((await aiSdkResponses(resolver, value as never)).decided).toEqual([]);
        expect((await langGraphResume(resolver, value as never, value as never)).decided).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });

  it("ai 7: skips automatic and answered requests; a call the inbox refuses is denied", async () => {
    const messages = [
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "x1", toolName: "send_email", input: { n: 10n } },
          { type: "tool-approval-request", approvalId: "ap1", toolCallId: "x1" },
          { type: "tool-call", toolCallId: "x2", toolName: "send_email", input: { to: "c@example.com" } },
          { type: "tool-approval-request", approvalId: "ap2", toolCallId: "x2", isAutomatic: true },
          { type: "tool-call", toolCallId: "x3", toolName: "send_email", input: { to: "d@example.com" } },
          { type: "tool-approval-request", approvalId: "ap3", toolCallId: "x3" },
          { type: "tool-approval-request", approvalId: "ap4", toolCallId: "nobody" },
        ],
      },
      { role: "tool", content: [{ type: "tool-approval-response", approvalId: "ap3", approved: true }] },
    ];
    const { decided, pending } = await aiSdkResponses(resolver, messages);
    expect(pending).toEqual([]);
    expect(decided).toEqual([
      {
        type: "tool-approval-response",
        approvalId: "ap1",
        approved: false,
        reason: expect.stringMatching(/^send_email was not approved: the inbox refused the call/),
      },
    ]);
  });

  it("a store that does not answer decides nothing: the helper rejects, to be tried again", async () => {
    const { inbox: closed } = await openInbox(kind);
    await closed.close();
    const messages = [
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "z1", toolName: "send_email", input: { to: "z@example.com" } },
          { type: "tool-approval-request", approvalId: "apz", toolCallId: "z1" },
        ],
      },
    ];
    const down = inboxResolver({ inbox: closed });
    await expect(aiSdkResponses(down, messages)).rejects.toMatchObject({ code: "TOOLWARE_INBOX_STORE" });
  });

  it("RunState: leaves items that are no bindable function call; LangGraph: only the call the question asked about", async () => {
    const approved: unknown[] = [];
    const items = [
      { rawItem: { type: "hosted_tool_call", name: "web" } },
      { rawItem: { type: "function_call", name: "send_email", callId: "r1", arguments: "{not json" } },
    ];
    const state = { getInterruptions: () => items, approve: (i: unknown) => approved.push(i), reject: () => {} };
    expect(await resolveRunState(resolver, state)).toEqual({ decided: 0, pending: [] });
    expect(approved).toEqual([]);
    const input = { to: "e@example.com" };
    const binding = bindApproval("send_email", "g1", input);
    const question = { kind: "toolware/human-input", toolName: "send_email", callId: "g1", binding };
    const messages = [{ tool_calls: [{ id: "g1", name: "send_email", args: { to: "mallory@example.com" } }] }];
    // The state's arguments are not those the question was asked about: nothing is looked up or decided.
    expect(await langGraphResume(resolver, [{ id: "i1", value: question }], messages)).toEqual({
      decided: undefined,
      pending: [],
    });
  });

  it("parseAnswer: an answer for a call the inbox never saw, or a resume with another word, denies", async () => {
    const ran: unknown[] = [];
    const tool = defineTool({ name: "send_email", execute: (i: Record<string, unknown>) => ran.push(i) });
    const hooks = new ToolHooks({ humanInput: async () => "no thanks" });
    hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: "ask" }) }));
    const out = await hooks.invoke(tool, { to: "f@example.com" }, { callId: "p1" });
    expect(out).toMatchObject({
      status: "blocked",
      reason: 'send_email was not approved: the run was resumed with "no thanks"',
    });
    // Denied in the inbox: a resume with any word reads the approver's reason.
    const r = (await inbox.list({ state: "pending" })).find((x) => x.binding.callId === "p1") as InboxRequest;
    await inbox.decide(r.id, { approver: boss, approve: false, reason: "not now", digest: r.binding.digest });
    const gate = inboxApproval({ inbox, mode: "defer", handoff: "ask" });
    const parsed = await gate.parseAnswer("yes", { toolName: "t", callId: "c", toolInput: {}, state: {} } as never);
    expect(parsed).toMatchObject({ approve: false, reason: "the inbox holds no request for this call" });
    expect((await hooks.invoke(tool, { to: "f@example.com" }, { callId: "p1" })).reason).toBe(
      "send_email was not approved: not now",
    );
    expect(ran).toEqual([]);
  });
});
