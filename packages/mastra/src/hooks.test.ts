import { ToolHooks } from "@toolware/core";
import { type ApprovalDecision, approval } from "@toolware/packs/approval";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { mastraToolware } from "./index.js";

// The hooks as Mastra calls them (beforeToolCall, then the tool, then afterToolCall), driven by hand, so that the
// composition and the question an approval asks are checked on every Node (the end-to-end tests need Node 22.13).
type Hooks = ReturnType<ReturnType<typeof mastraToolware>["with"]>;
const before = (h: Hooks, hc: unknown) => (h.beforeToolCall as (hc: unknown) => Promise<unknown>)(hc);
const after = (h: Hooks, hc: unknown) => (h.afterToolCall as (hc: unknown) => Promise<void>)(hc);

describe("tw.with(): your hooks composed with the chain", () => {
  it("the chain decides first; yours see the rewritten arguments and the tool's own result", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      if (ctx.toolInput.to === "everyone") ctx.block("no mass mail");
      else ctx.toolInput.to = "ann";
    });
    const tw = mastraToolware(hooks);
    const seen: unknown[] = [];
    const h = tw.with({
      beforeToolCall: ({ input }) => void seen.push(["before", { ...(input as object) }]),
      afterToolCall: ({ output }) => void seen.push(["after", output]),
    });
    const blocked = await before(h, { toolName: "send", input: { to: "everyone" }, context: { toolCallId: "a" } });
    expect(blocked).toEqual({
      proceed: false,
      output: "Tool execution blocked by hook. Tool: send. Reason: no mass mail",
    });
    const input = { to: "bob" };
    const context = { toolCallId: "b" };
    expect(await before(h, { toolName: "send", input, context })).toBeUndefined();
    expect(input).toEqual({ to: "ann" });
    await after(h, { toolName: "send", input, context, output: "sent" });
    expect(seen).toEqual([
      ["before", { to: "ann" }],
      ["after", "sent"],
    ]);
  });

  it("your beforeToolCall may answer for the tool (through the after-hooks) or throw (the chain hears the error)", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const statuses: string[] = [];
    const tw = mastraToolware(hooks, { onOutcome: (o) => statuses.push(o.status) });
    const answer = { proceed: false as const, output: "api_key=sk-proj-abc123def456ghi789jkl" };
    const answering = tw.with({ beforeToolCall: () => answer });
    expect(await before(answering, { toolName: "t", input: {}, context: { toolCallId: "x" } })).toBe(answer);
    const processed: unknown[] = [];
    const messageList = { updateToolInvocation: (part: unknown) => processed.push(part) !== 0 };
    tw.processor.processToolResult({ toolCallId: "x", toolName: "t", args: {}, messageList: messageList as never });
    expect(JSON.stringify(processed)).toContain("[REDACTED]");
    expect(JSON.stringify(processed)).not.toContain("sk-proj");
    const throwing = tw.with({
      beforeToolCall: () => {
        throw new Error("own hook failed");
      },
    });
    await expect(before(throwing, { toolName: "t", input: {}, context: { toolCallId: "y" } })).rejects.toThrow(
      "own hook failed",
    );
    expect(statuses).toEqual(["ok", "error"]);
  });
});

describe("tw.approval: the question it asks through Mastra's suspension", () => {
  it("suspends with the gate's arguments, bound to the call; onOutcome does not hear a waiting call", async () => {
    const hooks = new ToolHooks();
    const tw = mastraToolware(hooks, { onOutcome: () => heard.push("outcome") });
    const heard: string[] = [];
    const decisions: ApprovalDecision[] = [];
    hooks.use(approval({ tools: ["send"], external: tw.approval, onDecision: (d) => decisions.push(d) }));
    const suspended: unknown[] = [];
    const context = { toolCallId: "c1", suspend: async (...args: unknown[]) => void suspended.push(args) };
    const result = await before(tw.hooks as Hooks, { toolName: "send", input: { to: "ann" }, context });
    expect(result).toMatchObject({ proceed: false });
    expect(suspended).toEqual([
      [undefined, { requireToolApproval: { toolCallId: "c1", toolName: "send", args: { to: "ann" } } }],
    ]);
    expect(decisions).toEqual([expect.objectContaining({ approved: false, source: "deferred", callId: "c1" })]);
    expect(heard).toEqual([]);
    // No answer came through the agent: the same call asks again, it never runs on its own.
    await before(tw.hooks as Hooks, { toolName: "send", input: { to: "ann" }, context });
    expect(suspended).toHaveLength(2);
  });

  it("a call without Mastra's call id or suspend is not asked through Mastra", async () => {
    const hooks = new ToolHooks();
    const tw = mastraToolware(hooks);
    const decisions: ApprovalDecision[] = [];
    hooks.use(approval({ tools: ["send"], external: tw.approval, onDecision: (d) => decisions.push(d) }));
    await before(tw.hooks as Hooks, { toolName: "send", input: { to: "ann" }, context: { toolCallId: "c2" } });
    await before(tw.hooks as Hooks, { toolName: "send", input: { to: "ann" }, context: {} });
    expect(decisions.map((d) => [d.approved, d.source])).toEqual([
      [false, "external"],
      [false, "unavailable"],
    ]);
  });
});
