import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approver, Inbox } from "./contract.js";
import { inboxApproval } from "./gate.js";
import { openInbox, type StoreKind, sqliteKind } from "./test-utils.js";

const ran: Record<string, unknown>[] = [];
const send = defineTool({
  name: "send_email",
  execute: (input: Record<string, unknown>) => {
    ran.push({ ...input });
    return "sent";
  },
});

async function pendingOf(inbox: Inbox, callId: string) {
  for (;;) {
    const found = (await inbox.list({ state: "pending" })).find((r) => r.binding.callId === callId);
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("inboxApproval: the approval pack answered by the inbox", () => {
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

  it("\"wait\": the tool runs only after the approval, with an edit's arguments; a rejection's reason reaches the agent", async () => {
    ran.length = 0;
    const hooks = new ToolHooks();
    hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "wait", caller: "mailer" }) }));
    const first = hooks.invoke(send, { to: "a@example.com" }, { callId: "w1" });
    const r1 = await pendingOf(inbox, "w1");
    expect(ran).toEqual([]);
    await inbox.decide(r1.id, { approver: boss, approve: true, digest: r1.binding.digest });
    expect((await first).status).toBe("ok");
    expect(ran).toEqual([{ to: "a@example.com" }]);

    const second = hooks.invoke(send, { to: "b@example.com" }, { callId: "w2" });
    const r2 = await pendingOf(inbox, "w2");
    await inbox.decide(r2.id, { approver: boss, approve: false, reason: "not today", digest: r2.binding.digest });
    expect(await second).toMatchObject({ status: "blocked", reason: "send_email was not approved: not today" });

    const third = hooks.invoke(send, { to: "c@example.com", cc: "x" }, { callId: "w3" });
    const r3 = await pendingOf(inbox, "w3");
    await inbox.edit(r3.id, { approver: boss, input: { to: "ops@example.com" }, digest: r3.binding.digest });
    expect((await third).status).toBe("ok");
    expect(ran.at(-1)).toEqual({ to: "ops@example.com" });

    // The same call again (a retry, a replayed history): the approval was used, the tool does not run twice.
    expect((await hooks.invoke(send, { to: "a@example.com" }, { callId: "w1" })).status).toBe("blocked");
    expect(ran).toHaveLength(2);
  });

  it('"defer": the call ends at once as pending with its URL; when it comes again the decision applies once', async () => {
    ran.length = 0;
    const hooks = new ToolHooks();
    hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", caller: "mailer" }) }));
    const out = await hooks.invoke(send, { to: "d@example.com" }, { callId: "d1" });
    expect(out.status).toBe("blocked");
    const request = await pendingOf(inbox, "d1");
    expect(out.reason).toBe(
      `send_email waits for approval in the inbox (request ${request.id}: ${inbox.urlOf(request.id)})`,
    );
    expect((await hooks.invoke(send, { to: "d@example.com" }, { callId: "d1" })).status).toBe("blocked");
    await inbox.decide(request.id, { approver: boss, approve: true, digest: request.binding.digest });
    // Other arguments under the same id are another call: a new request, not this approval.
    expect((await hooks.invoke(send, { to: "evil@example.com" }, { callId: "d1" })).status).toBe("blocked");
    expect((await hooks.invoke(send, { to: "d@example.com" }, { callId: "d1" })).status).toBe("ok");
    expect((await hooks.invoke(send, { to: "d@example.com" }, { callId: "d1" })).status).toBe("blocked");
    expect(ran).toEqual([{ to: "d@example.com" }]);
  });

  it("handoff: a framework's no stands, its defer and undefined pass on, its yes needs the inbox's", async () => {
    ran.length = 0;
    const answers: unknown[] = [{ approve: false, reason: "the user said no" }, "defer", undefined, { approve: true }];
    const hooks = new ToolHooks({ humanInput: async () => "later" });
    const handoff = () => answers.shift() as never;
    hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff }) }));
    const call = () => hooks.invoke(send, { to: "h@example.com" }, { callId: "h1" });
    expect((await call()).reason).toBe("send_email was not approved: the user said no");
    expect((await call()).reason).toMatch(/^send_email waits for approval in the inbox \(request req_/);
    // undefined: the pack asks the human-input provider, whose answer only wakes the call.
    expect((await call()).reason).toBe('send_email was not approved: the run was resumed with "later"');
    expect((await call()).reason).toMatch(/^send_email was not approved: no decision in the inbox yet \(http/);
    expect(ran).toEqual([]);
  });

  it("a request past its deadline denies the call that comes back", async () => {
    ran.length = 0;
    let now = Date.now();
    const { inbox: timed } = await openInbox(kind, { now: () => now });
    const hooks = new ToolHooks();
    hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox: timed, mode: "defer", timeoutMs: 1000 }) }));
    expect((await hooks.invoke(send, { to: "e@example.com" }, { callId: "e1" })).reason).toMatch(/waits for approval/);
    now += 2000;
    expect((await hooks.invoke(send, { to: "e@example.com" }, { callId: "e1" })).reason).toBe(
      "send_email was not approved: nobody decided before the deadline",
    );
    expect(ran).toEqual([]);
  });

  it("refuses typos in its options", () => {
    expect(() => inboxApproval({ inbox, mode: "wait", timeoutMS: 5 } as never)).toThrow(/did you mean "timeoutMs"/);
    expect(() => inboxApproval({ inbox, mode: "later" } as never)).toThrow(/mode/);
  });
});
