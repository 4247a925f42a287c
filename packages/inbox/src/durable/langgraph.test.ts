import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { ToolHooks } from "@toolware/core";
import { interruptHumanInput, toolwareMiddleware } from "@toolware/langchain";
import { approval } from "@toolware/packs/approval";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Approver, Inbox, InboxRequest } from "../contract.js";
import { inboxApproval } from "../gate.js";
import { createInbox } from "../inbox.js";
import { openInbox, type StoreKind, signer, sqliteKind } from "../test-utils.js";
import { langGraphResume } from "./frameworks.js";
import { inboxResolver } from "./resolver.js";

const ran: string[] = [];
const ask = { messages: [{ role: "user", content: "mail them" }] };

// One "process": its own inbox over the shared SQLite file, its own hooks and agent, the shared checkpointer.
async function processOn(kind: StoreKind, checkpointer: MemorySaver, model: ReturnType<typeof fakeModel>) {
  const inbox = createInbox({ store: await kind.open(), signer: signer(), pollMs: 5 });
  const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
  hooks.use(
    approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", handoff: "ask", caller: "mailer" }) }),
  );
  const send = tool(
    async ({ to }: { to: string }) => {
      ran.push(to);
      return `sent to ${to}`;
    },
    { name: "send_email", schema: z.object({ to: z.string() }) },
  );
  const agent = createAgent({ model, tools: [send], checkpointer, middleware: [toolwareMiddleware(hooks)] });
  return { inbox, agent, model, resolver: inboxResolver({ inbox, caller: "mailer" }) };
}

const calling = (id: string, to: string) =>
  fakeModel()
    .respondWithTools([{ name: "send_email", args: { to }, id }])
    .respond(new AIMessage("done"));
const seen = (model: ReturnType<typeof fakeModel>) =>
  model.calls.flatMap((c) => c.messages.filter((m: BaseMessage): m is ToolMessage => ToolMessage.isInstance(m)));

describe("LangGraph interrupt/resume + the inbox: the checkpointed run resumes with the inbox's decision, once", () => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  const checkpointer = new MemorySaver();
  beforeAll(async () => {
    kind = sqliteKind();
    ({ inbox, boss } = await openInbox(kind));
  });
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });

  async function pause(thread: string, callId: string, to: string) {
    const p = await processOn(kind, checkpointer, calling(callId, to));
    const config = { configurable: { thread_id: thread } };
    const paused = await p.agent.invoke(ask, config);
    const interrupts = paused.__interrupt__ ?? [];
    expect(interrupts).toHaveLength(1);
    const first = await langGraphResume(p.resolver, interrupts, paused.messages);
    expect(first.decided).toBeUndefined();
    expect(first.pending).toHaveLength(1);
    const pending = first.pending[0] as NonNullable<(typeof first.pending)[0]>;
    expect(pending.url).toBe(inbox.urlOf(pending.requestId));
    expect(ran).toEqual([]);
    const request = (await inbox.get(pending.requestId)) as InboxRequest;
    return { p, config, paused, request };
  }

  it("approved, resumed in a new process (fresh inbox, hooks and agent): the tool runs once; a second resume runs nothing", async () => {
    ran.length = 0;
    const { p, config, paused, request } = await pause("t1", "call_1", "ann@example.com");
    // The checkpoint the run paused at: replaying from it later must not run the call again.
    const at = (await p.agent.graph.getState(config)).config.configurable?.checkpoint_id as string;
    expect(typeof at).toBe("string");
    await p.inbox.close();
    await inbox.decide(request.id, { approver: boss, approve: true, digest: request.binding.digest });
    const q = await processOn(kind, checkpointer, fakeModel().respond(new AIMessage("done")));
    const { decided } = await langGraphResume(q.resolver, paused.__interrupt__ ?? [], paused.messages);
    expect(decided).toBeDefined();
    const done = await q.agent.invoke(new Command({ resume: decided }), config);
    expect(ran).toEqual(["ann@example.com"]);
    expect(done.messages.at(-1)?.content).toBe("done");
    const r = await processOn(kind, checkpointer, fakeModel().respond(new AIMessage("again")));
    await r.agent.invoke(new Command({ resume: decided }), config);
    expect(ran).toEqual(["ann@example.com"]);
    // Replayed from the paused checkpoint (time travel, another worker): the approval was used.
    const replay = await r.agent.invoke(new Command({ resume: decided }), {
      configurable: { thread_id: "t1", checkpoint_id: at },
    });
    expect(ran).toEqual(["ann@example.com"]);
    const replies = replay.messages.filter((m: BaseMessage) => ToolMessage.isInstance(m)).map((m) => String(m.content));
    expect(replies.at(-1)).toMatch(/was used already/);
    await q.inbox.close();
    await r.inbox.close();
  });

  it("rejected, resumed in the same process: the reason reaches the model, the tool never runs", async () => {
    ran.length = 0;
    const { p, config, paused, request } = await pause("t2", "call_2", "ceo@example.com");
    await inbox.decide(request.id, {
      approver: boss,
      approve: false,
      reason: "never mail the CEO",
      digest: request.binding.digest,
    });
    const { decided } = await langGraphResume(p.resolver, paused.__interrupt__ ?? [], paused.messages);
    await p.agent.invoke(new Command({ resume: decided }), config);
    expect(ran).toEqual([]);
    const [message] = seen(p.model);
    expect(message?.status).toBe("error");
    expect(String(message?.content)).toContain("send_email was not approved: never mail the CEO");
    await p.inbox.close();
  });

  it("edited then approved: the waiting call runs once with the edited arguments", async () => {
    ran.length = 0;
    const { p, config, paused, request } = await pause("t3", "call_3", "all@example.com");
    await inbox.edit(request.id, { approver: boss, input: { to: "team@example.com" }, digest: request.binding.digest });
    const { decided } = await langGraphResume(p.resolver, paused.__interrupt__ ?? [], paused.messages);
    await p.agent.invoke(new Command({ resume: decided }), config);
    expect(ran).toEqual(["team@example.com"]);
    await p.inbox.close();
  });

  it('resumed with "yes" before anyone decided: denied, the tool never runs', async () => {
    ran.length = 0;
    const { p, config } = await pause("t4", "call_4", "ann@example.com");
    await p.agent.invoke(new Command({ resume: "yes" }), config);
    expect(ran).toEqual([]);
    expect(String(seen(p.model)[0]?.content)).toContain("no decision in the inbox yet");
    await p.inbox.close();
  });
});
