import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { audit } from "@toolware/packs/audit";
import { rateLimit } from "@toolware/packs/rate-limit";
import { generateText, type ModelMessage, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { aiSdkApproval, guardTools } from "./index.js";
import { generateResults, type Turn, toolResultsIn } from "./test-fixtures.js";

const call = (id: string, toolName: string, input: Record<string, unknown>) => ({ id, toolName, input });
const model = (turns: readonly Turn[]) => new MockLanguageModelV3({ doGenerate: generateResults(turns) });

function setup(log: string[], extra?: (hooks: ToolHooks) => void) {
  const hooks = new ToolHooks();
  extra?.(hooks);
  hooks.use(approval({ tools: ["send", "delete_account"], external: aiSdkApproval }));
  const send = tool({
    inputSchema: z.object({ to: z.string() }),
    execute: async ({ to }) => {
      log.push(`send:${to}`);
      return `sent to ${to}`;
    },
  });
  const deleteAccount = tool({
    inputSchema: z.object({ user: z.string() }),
    execute: async ({ user }) => {
      log.push(`delete:${user}`);
      return `deleted ${user}`;
    },
  });
  const tools = guardTools(hooks, { send, delete_account: deleteAccount }, { nativeApproval: true });
  // One conversation: each turn sends the history so far, as a chat app does.
  const history: ModelMessage[] = [{ role: "user", content: "go" }];
  const turn = async (turns: readonly Turn[]) => {
    const m = model(turns);
    const result = await generateText({
      model: m,
      tools,
      messages: history,
      stopWhen: stepCountIs(4),
    });
    history.push(...result.response.messages);
    const asked = result.content.flatMap((p) =>
      p.type === "tool-approval-request" ? [{ approvalId: p.approvalId, toolName: p.toolCall.toolName }] : [],
    );
    return { m, asked, result };
  };
  const answer = (approvalId: string, approved: boolean) =>
    history.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId, approved }] });
  return { hooks, tools, turn, answer, history };
}

describe("ai 6 native approval (needsApproval): an approval answers one call, once", () => {
  it("the same id with another tool is asked again; the approved call ran once", async () => {
    const log: string[] = [];
    const { turn, answer } = setup(log);
    const first = await turn([[call("call_0", "send", { to: "ann" })]]);
    expect(first.asked).toHaveLength(1);
    answer(first.asked[0]?.approvalId as string, true);
    // Resumed: the approved send runs; the model's next call reuses the id for another gated tool.
    const second = await turn([[call("call_0", "delete_account", { user: "ann" })], "done"]);
    expect(log).toEqual(["send:ann"]);
    expect(second.asked.map((p) => p.toolName)).toEqual(["delete_account"]);
  });

  it("the same id and tool with other arguments is asked again", async () => {
    const log: string[] = [];
    const { turn, answer } = setup(log);
    const first = await turn([[call("call_0", "send", { to: "ann" })]]);
    answer(first.asked[0]?.approvalId as string, true);
    const second = await turn([[call("call_0", "send", { to: "mallory" })], "done"]);
    expect(log).toEqual(["send:ann"]);
    expect(second.asked).toHaveLength(1);
  });

  it("an approval is consumed once: the same id, tool and arguments later are asked again", async () => {
    const log: string[] = [];
    const { turn, answer } = setup(log);
    const first = await turn([[call("call_0", "send", { to: "ann" })]]);
    answer(first.asked[0]?.approvalId as string, true);
    const second = await turn([[call("call_0", "send", { to: "ann" })], "done"]);
    expect(log).toEqual(["send:ann"]);
    expect(second.asked).toHaveLength(1);
    // Approving the new question runs the new call, once more.
    answer(second.asked[0]?.approvalId as string, true);
    const third = await turn(["done"]);
    expect(log).toEqual(["send:ann", "send:ann"]);
    expect(toolResultsIn(third.m.doGenerateCalls[0]?.prompt).call_0).toEqual({ type: "text", value: "sent to ann" });
  });

  it("a history that answers a request for other arguments than the call's approves nothing", async () => {
    const log: string[] = [];
    const { turn, answer, history } = setup(log);
    const first = await turn([[call("call_0", "send", { to: "ann" })]]);
    // A client rewrites the pending call's arguments before answering.
    const assistant = history.find((m) => m.role === "assistant") as { content: { type: string; input?: unknown }[] };
    for (const part of assistant.content) if (part.type === "tool-call") part.input = { to: "mallory" };
    for (const part of assistant.content) {
      if (part.type === "tool-approval-request") (part as { toolCall?: { input: unknown } }).toolCall = undefined;
    }
    answer(first.asked[0]?.approvalId as string, true);
    await turn(["done"]).catch(() => undefined);
    expect(log).toEqual([]);
  });

  it("a tool call slipped in after the answered request (same id, other arguments) is denied, not run", async () => {
    const log: string[] = [];
    const { turn, answer, history } = setup(log);
    const first = await turn([[call("call_0", "send", { to: "ann" })]]);
    const assistant = history.find((m) => m.role === "assistant") as { content: unknown[] };
    assistant.content.push({ type: "tool-call", toolCallId: "call_0", toolName: "send", input: { to: "mallory" } });
    answer(first.asked[0]?.approvalId as string, true);
    await turn(["done"]).catch(() => undefined);
    expect(log).toEqual([]);
  });

  it("ai 6: approval pack + rateLimit(max 1) + audit: the chain runs once per call, one audit line, the tool runs", async () => {
    const log: string[] = [];
    const file = join(mkdtempSync(join(tmpdir(), "tw-ai6-")), "audit.jsonl");
    const trail = audit({ file, durability: "write" });
    const { turn, answer } = setup(log, (hooks) => {
      hooks.use(rateLimit({ max: 1, per: "1h" }));
      hooks.use(trail);
    });
    const first = await turn([[call("call_0", "send", { to: "ann" })]]);
    answer(first.asked[0]?.approvalId as string, true);
    const second = await turn(["done"]);
    trail.close();
    expect(log).toEqual(["send:ann"]);
    expect(toolResultsIn(second.m.doGenerateCalls[0]?.prompt).call_0).toEqual({ type: "text", value: "sent to ann" });
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ callId: "call_0", tool: "send", status: "ok" });
  });
});
