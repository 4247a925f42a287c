import { type ApprovalBinding, bindApproval, defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type ApprovalDecision, approval } from "./index.js";

const ran: Record<string, unknown>[] = [];
const send = defineTool({
  name: "send_email",
  execute: (input: Record<string, unknown>) => {
    ran.push({ ...input });
    return "sent";
  },
});

describe("approval: every decision is bound to the call it answers", () => {
  it("a decision names the tool, the call id and the digest of the arguments as decided (an edit's)", async () => {
    ran.length = 0;
    const decisions: ApprovalDecision[] = [];
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes", 'edit {"to":"team@example.com"}']) });
    hooks.use(approval({ onDecision: (d) => decisions.push(d), editMode: "replace" }));
    await hooks.invoke(send, { to: "boss@example.com" }, { callId: "call_0" });
    await hooks.invoke(send, { to: "all@example.com" }, { callId: "call_0" });
    expect(decisions[0]?.binding).toEqual(bindApproval("send_email", "call_0", { to: "boss@example.com" }));
    // The edited approval carries the edit's digest, not the model's arguments'.
    expect(decisions[1]?.binding).toEqual(bindApproval("send_email", "call_0", { to: "team@example.com" }));
    expect(decisions[1]?.binding).not.toEqual(bindApproval("send_email", "call_0", { to: "all@example.com" }));
    expect(ran).toEqual([{ to: "boss@example.com" }, { to: "team@example.com" }]);
  });

  it("an external answer bound to another call approves nothing: other arguments, tool or id", async () => {
    ran.length = 0;
    const kept: { binding?: ApprovalBinding } = {};
    const decisions: ApprovalDecision[] = [];
    const hooks = new ToolHooks();
    hooks.use(
      approval({ external: () => ({ approve: true, binding: kept.binding }), onDecision: (d) => decisions.push(d) }),
    );
    const cases: [ApprovalBinding, boolean][] = [
      [bindApproval("send_email", "call_0", { to: "a" }), true],
      [bindApproval("send_email", "call_0", { to: "b" }), false],
      [bindApproval("delete_account", "call_0", { to: "a" }), false],
      [bindApproval("send_email", "call_1", { to: "a" }), false],
      [{ toolName: "send_email", callId: "call_0", digest: "sha256:0" }, false],
    ];
    for (const [binding, runs] of cases) {
      kept.binding = binding;
      const out = await hooks.invoke(send, { to: "a" }, { callId: "call_0" });
      expect(out.status).toBe(runs ? "ok" : "blocked");
    }
    expect(ran).toEqual([{ to: "a" }]);
    expect(decisions[1]).toMatchObject({ approved: false, source: "invalid-answer" });
    expect(decisions[1]?.detail).toMatch(/bound to another call/);
  });

  it("an external flow that never answers is bounded by timeoutMs, and by the call's signal", async () => {
    const hooks = new ToolHooks();
    const decisions: ApprovalDecision[] = [];
    hooks.use(approval({ external: () => new Promise(() => {}), timeoutMs: 20, onDecision: (d) => decisions.push(d) }));
    const out = await hooks.invoke(send, { to: "a" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("no approval for send_email within 20 ms");
    const controller = new AbortController();
    const pending = hooks.invoke(send, { to: "a" }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await pending;
    expect(decisions.map((d) => d.source)).toEqual(["timeout", "cancelled"]);
  });

  it("remember: tool+input keys by digest: key order is the same input, a type change is not", async () => {
    ran.length = 0;
    const human = scriptedHumanInput(["always", "no"]);
    const hooks = new ToolHooks({ humanInput: human });
    const gate = approval({ remember: "tool+input" });
    hooks.use(gate);
    await hooks.invoke(send, { to: "a", n: 1 });
    await hooks.invoke(send, { n: 1, to: "a" });
    const other = await hooks.invoke(send, { to: "a", n: "1" });
    expect(ran).toHaveLength(2);
    expect(other.status).toBe("blocked");
    expect(human.requests).toHaveLength(2);
    expect(gate.rememberedCount()).toBe(1);
  });
});
