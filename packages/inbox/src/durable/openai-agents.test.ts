import { Agent, RunState, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { ToolHooks } from "@toolware/core";
import { guardAgent, openAIAgentsApprovals, tool } from "@toolware/openai-agents";
import { approval } from "@toolware/packs/approval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Approver, Inbox } from "../contract.js";
import { inboxApproval } from "../gate.js";
import { createInbox } from "../inbox.js";
import { createInboxServer } from "../server/index.js";
import { openInbox, type StoreKind, signer, sqliteKind } from "../test-utils.js";
import { resolveRunState } from "./frameworks.js";
import { inboxResolver } from "./resolver.js";

beforeAll(() => setTracingDisabled(true));

const ran: string[] = [];

// One "process": its own inbox over the shared SQLite file, its own hooks and agent.
async function processOn(kind: StoreKind, model: ScriptedModel) {
  const inbox = createInbox({ store: await kind.open(), signer: signer(), pollMs: 5 });
  const hooks = new ToolHooks({ humanInput: openAIAgentsApprovals() });
  hooks.use(
    approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: "ask", caller: "mailer" }) }),
  );
  const send = tool({
    name: "send_email",
    description: "Sends an email",
    parameters: z.object({ to: z.string() }),
    execute: ({ to }) => {
      ran.push(to);
      return `sent to ${to}`;
    },
  });
  const agent = guardAgent(new Agent({ name: "mailer", model, tools: [send] }), hooks);
  return { inbox, agent, resolver: inboxResolver({ inbox, caller: "mailer" }) };
}

const outputs = (items: readonly { type: string }[]) =>
  items.flatMap((i) => (i.type === "tool_call_output_item" ? [(i as { output?: unknown }).output] : []));

describe("OpenAI Agents RunState + the inbox: pause, decide over HTTP, resume elsewhere, exactly once", () => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  let tokens: Record<string, string>;
  beforeAll(async () => {
    kind = sqliteKind();
    ({ inbox, boss, tokens } = await openInbox(kind));
  });
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });
  const api = () => createInboxServer({ inbox }).app;
  const auth = () => ({ authorization: `Bearer ${tokens.boss}`, "content-type": "application/json" });

  async function pause(callId: string, to: string) {
    const p = await processOn(kind, new ScriptedModel([[functionCall("send_email", { to }, { callId })]]));
    const first = await run(p.agent, "mail");
    expect(first.interruptions).toHaveLength(1);
    const { decided, pending } = await resolveRunState(p.resolver, first.state);
    expect(decided).toBe(0);
    expect(pending).toHaveLength(1);
    const saved = first.state.toString();
    await p.inbox.close();
    return { saved, pending: pending[0] as NonNullable<(typeof pending)[0]> };
  }

  async function resume(saved: string) {
    const p = await processOn(kind, new ScriptedModel([[assistantMessage("done")]]));
    const state = await RunState.fromString(p.agent, saved);
    const { decided } = await resolveRunState(p.resolver, state);
    const result = decided > 0 ? await run(p.agent, state) : undefined;
    await p.inbox.close();
    return { decided, result };
  }

  it("approved over the HTTP API: the resumed run (another inbox, agent and hooks) runs the tool once", async () => {
    ran.length = 0;
    const { saved, pending } = await pause("o1", "ann@example.com");
    expect(pending.url).toBe(inbox.urlOf(pending.requestId));
    expect(typeof pending.resumeToken).toBe("string");
    // Not decided yet: nothing to resume, nothing runs.
    expect((await resume(saved)).decided).toBe(0);
    const got = await api().request(`/api/requests/${pending.requestId}`, { headers: auth() });
    const { request } = (await got.json()) as { request: { digest: string } };
    // A decision for other arguments is refused.
    const wrong = await api().request(`/api/requests/${pending.requestId}/approve`, {
      method: "POST",
      headers: auth(),
      body: JSON.stringify({ digest: `${request.digest.slice(0, -4)}0000` }),
    });
    expect(wrong.status).toBe(409);
    const ok = await api().request(`/api/requests/${pending.requestId}/approve`, {
      method: "POST",
      headers: auth(),
      body: JSON.stringify({ digest: request.digest }),
    });
    expect(ok.status).toBe(200);
    const resumed = await resume(saved);
    expect(resumed.result?.finalOutput).toBe("done");
    expect(ran).toEqual(["ann@example.com"]);
    // The same saved state resumed again: the approval was used, the tool does not run twice.
    const again = await resume(saved);
    expect(ran).toEqual(["ann@example.com"]);
    expect(String(outputs(again.result?.newItems ?? []))).toMatch(/was used already/);
  });

  it("rejected: the reason reaches the model; the tool never runs", async () => {
    ran.length = 0;
    const { saved, pending } = await pause("o2", "ceo@example.com");
    const r = (await inbox.get(pending.requestId)) as NonNullable<Awaited<ReturnType<Inbox["get"]>>>;
    await inbox.decide(r.id, { approver: boss, approve: false, reason: "not the CEO", digest: r.binding.digest });
    const resumed = await resume(saved);
    expect(ran).toEqual([]);
    expect(String(outputs(resumed.result?.newItems ?? []))).toMatch(/send_email was not approved: not the CEO/);
  });

  it("edited then approved: the tool runs once with the edited arguments", async () => {
    ran.length = 0;
    const { saved, pending } = await pause("o3", "all@example.com");
    const r = (await inbox.get(pending.requestId)) as NonNullable<Awaited<ReturnType<Inbox["get"]>>>;
    await inbox.edit(r.id, { approver: boss, input: { to: "team@example.com" }, digest: r.binding.digest });
    await resume(saved);
    await resume(saved);
    expect(ran).toEqual(["team@example.com"]);
  });

  it("a state whose arguments were changed after the approval, approved by hand, does not run", async () => {
    ran.length = 0;
    const { saved, pending } = await pause("o4", "ann@example.com");
    const r = (await inbox.get(pending.requestId)) as NonNullable<Awaited<ReturnType<Inbox["get"]>>>;
    await inbox.decide(r.id, { approver: boss, approve: true, digest: r.binding.digest });
    const forged = saved.replaceAll("ann@example.com", "mallory@example.com");
    expect(forged).not.toBe(saved);
    const p = await processOn(kind, new ScriptedModel([[assistantMessage("done")]]));
    const state = await RunState.fromString(p.agent, forged);
    // The inbox has no decision for these arguments: the resolver leaves the call pending...
    expect((await resolveRunState(p.resolver, state)).pending).toHaveLength(1);
    // ...and an app that approves it anyway gets a denial: only the inbox's yes runs a call.
    for (const item of state.getInterruptions()) state.approve(item);
    const result = await run(p.agent, state);
    await p.inbox.close();
    expect(ran).toEqual([]);
    expect(String(outputs(result.newItems))).toMatch(/no decision in the inbox yet/);
  });
});
