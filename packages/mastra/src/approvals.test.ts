import { ToolHooks } from "@toolware/core";
import { type ApprovalDecision, approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";
import { mastraToolware } from "./index.js";
import { guardedAgent, mastraNode, resultsSeen, scripted, sendTool } from "./test-fixtures.js";

function setup(...turns: Parameters<typeof scripted>) {
  const hooks = new ToolHooks();
  const decisions: ApprovalDecision[] = [];
  const tw = mastraToolware(hooks);
  hooks.use(approval({ tools: ["send"], external: tw.approval, onDecision: (d) => decisions.push(d) }));
  const log: unknown[] = [];
  const model = scripted(...turns);
  const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }));
  return { hooks, tw, log, model, agent, decisions };
}

describe.runIf(mastraNode)("approvals through Mastra's suspension: approveToolCall / declineToolCall", () => {
  it("asks through Mastra, runs the call once approved, bound to the tool, call id and arguments", async () => {
    const { log, model, agent, decisions } = setup([["c1", "send", { to: "ann" }]], "sent");
    const first = await agent.generate("go");
    expect(first.finishReason).toBe("suspended");
    expect(first.suspendPayload).toMatchObject({ toolCallId: "c1", toolName: "send", args: { to: "ann" } });
    expect(log).toEqual([]);
    const done = await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId: "c1" });
    expect(done.text).toBe("sent");
    expect(log).toEqual([{ to: "ann" }]);
    expect(resultsSeen(model, 1).c1).toEqual({ sentTo: "ann", token: "sk-secret-123" });
    const approved = decisions.find((d) => d.approved);
    expect(approved).toMatchObject({ toolName: "send", callId: "c1", source: "external" });
    expect(approved?.binding?.digest).toMatch(/^sha256:/);
  });

  it("a declined call never runs and the model reads the reason", async () => {
    const { log, model, agent } = setup([["c1", "send", { to: "ann" }]], "ok");
    const first = await agent.generate("go");
    const done = await agent.declineToolCallGenerate({
      runId: first.runId as string,
      toolCallId: "c1",
      reason: "not today",
    });
    expect(done.text).toBe("ok");
    expect(log).toEqual([]);
    expect(JSON.stringify(resultsSeen(model, 1).c1)).toContain("not today");
  });

  it("an approval is taken once: the same call id again later is asked again, not run", async () => {
    const { log, agent } = setup([["c1", "send", { to: "ann" }]], [["c1", "send", { to: "ann" }]], "end");
    const first = await agent.generate("go", { maxSteps: 4 });
    const second = await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId: "c1" });
    expect(log).toEqual([{ to: "ann" }]);
    expect(second.finishReason).toBe("suspended");
    expect(second.suspendPayload).toMatchObject({ toolCallId: "c1" });
  });

  it("a yes for a call it never asked about records nothing; approving without a call id is refused", async () => {
    const { log, agent } = setup([["c1", "send", { to: "ann" }]], "sent");
    const first = await agent.generate("go");
    await expect(agent.approveToolCallGenerate({ runId: first.runId as string })).rejects.toMatchObject({
      code: "TOOLWARE_MASTRA_APPROVAL_CALL_ID",
    });
    // Another id: Mastra has no such pending call; the question for c1 stays unanswered.
    await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId: "c9" }).catch(() => undefined);
    expect(log).toEqual([]);
  });

  it("arguments changed between the question and the run get no yes", async () => {
    const hooks = new ToolHooks();
    let round = 0;
    hooks.before((ctx) => {
      round += 1;
      if (round > 1) ctx.toolInput.to = "mallory";
    });
    const tw = mastraToolware(hooks);
    const decisions: ApprovalDecision[] = [];
    hooks.use(approval({ tools: ["send"], external: tw.approval, onDecision: (d) => decisions.push(d) }));
    const log: unknown[] = [];
    const model = scripted([["c1", "send", { to: "ann" }]], "ok");
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }));
    const first = await agent.generate("go");
    await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId: "c1" });
    expect(log).toEqual([]);
    expect(decisions.at(-1)).toMatchObject({ approved: false, source: "invalid-answer" });
    expect(resultsSeen(model, 1).c1).toMatch(/bound to another call/);
  });
});
