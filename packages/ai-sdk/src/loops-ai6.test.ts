import { ToolHooks, toolwareCode } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { dynamicTool, generateText, type ModelMessage, stepCountIs, streamText, ToolLoopAgent, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { aiSdkApproval, guardTools } from "./index.js";
import { generateResults, streamResult, type Turn, toolResultsIn } from "./test-fixtures.js";

const call = (id: string, toolName: string, input: Record<string, unknown>) => ({ id, toolName, input });

function counting(log: string[]) {
  return tool({
    inputSchema: z.object({ to: z.string() }),
    execute: async ({ to }) => {
      log.push(to);
      return `sent to ${to}`;
    },
  });
}

describe("ai 6: every loop runs the chain", () => {
  it("streamText", async () => {
    const log: string[] = [];
    const hooks = new ToolHooks();
    const callIds: string[] = [];
    hooks.before((ctx) => {
      callIds.push(ctx.callId);
      ctx.toolInput.to = String(ctx.toolInput.to).toLowerCase();
    });
    const turns: Turn[] = [[call("s1", "send", { to: "ANN" })], "ok"];
    const m = new MockLanguageModelV3({ doStream: turns.map(streamResult) as never });
    const result = streamText({
      model: m,
      tools: guardTools(hooks, { send: counting(log) }),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    await result.consumeStream();
    expect(log).toEqual(["ann"]);
    expect(callIds).toEqual(["s1"]);
    expect(toolResultsIn(m.doStreamCalls[1]?.prompt).s1).toEqual({ type: "text", value: "sent to ann" });
  });

  it("ToolLoopAgent, a dynamicTool, and a tool prepareStep activates in a later step", async () => {
    const log: string[] = [];
    const names: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      names.push(ctx.toolName);
    });
    const lookup = dynamicTool({
      inputSchema: z.object({ q: z.string() }),
      execute: async (input) => ({ found: (input as { q: string }).q }),
    });
    const m = new MockLanguageModelV3({
      doGenerate: generateResults([[call("a1", "lookup", { q: "x" })], [call("a2", "send", { to: "bo" })], "done"]),
    });
    const agent = new ToolLoopAgent({
      model: m,
      tools: guardTools(hooks, { lookup, send: counting(log) }),
      stopWhen: stepCountIs(4),
      prepareStep: ({ stepNumber }) => ({ activeTools: stepNumber === 0 ? ["lookup"] : ["send"] }),
    });
    const result = await agent.generate({ prompt: "go" });
    expect(result.text).toBe("done");
    expect(names).toEqual(["lookup", "send"]);
    expect(log).toEqual(["bo"]);
    expect(toolResultsIn(m.doGenerateCalls[1]?.prompt).a1).toEqual({ type: "json", value: { found: "x" } });
  });

  it("refuses provider-executed tools unless accepted, and reports each accepted one", () => {
    const webSearch = { type: "provider", id: "openai.web_search", args: {}, inputSchema: z.object({}) } as const;
    const clientSide = tool({ inputSchema: z.object({ color: z.string() }) });
    const hooks = new ToolHooks();
    let error: unknown;
    try {
      guardTools(hooks, { webSearch });
    } catch (e) {
      error = e;
    }
    expect(toolwareCode(error)).toBe("TOOLWARE_UNGUARDABLE_TOOL");
    expect(String(error)).toContain("webSearch");
    const told: unknown[] = [];
    const tools = guardTools(hooks, { webSearch, clientSide }, { unguardable: (t) => told.push(t) });
    expect(told).toEqual([
      { toolName: "webSearch", kind: "provider-executed" },
      { toolName: "clientSide", kind: "no-execute" },
    ]);
    expect(tools.webSearch).toBe(webSearch);
  });

  it.each([
    [[new ToolHooks(), null], "TOOLWARE_INVALID_ARGUMENT"],
    [[{}, {}], "TOOLWARE_INVALID_ARGUMENT"],
    [[new ToolHooks(), {}, { onOutcom: () => {} }], "TOOLWARE_UNKNOWN_OPTION"],
    [[new ToolHooks(), {}, { bind: "agent" }], "TOOLWARE_INVALID_OPTION"],
    [[new ToolHooks(), {}, { nativeApproval: "yes" }], "TOOLWARE_INVALID_OPTION"],
    [[new ToolHooks(), { x: 1 }], "TOOLWARE_INVALID_TOOL"],
  ])("rejects bad arguments with a code (%#)", (args, code) => {
    expect(() => (guardTools as (...a: unknown[]) => unknown)(...args)).toThrow(TypeError);
    try {
      (guardTools as (...a: unknown[]) => unknown)(...args);
    } catch (e) {
      expect(toolwareCode(e)).toBe(code);
    }
  });
});

describe("ai 6: human approval through the SDK's own flow", () => {
  it("asks the user for two parallel calls; approving one and denying the other resumes the run", async () => {
    const log: string[] = [];
    const hooks = new ToolHooks();
    hooks.use(approval({ tools: "send", external: aiSdkApproval }));
    hooks.before((ctx) => {
      ctx.toolInput.to = `${ctx.toolInput.to}@example.com`;
    });
    const tools = guardTools(hooks, { send: counting(log) }, { nativeApproval: true });
    const first = new MockLanguageModelV3({
      doGenerate: generateResults([[call("m1", "send", { to: "ann" }), call("m2", "send", { to: "bob" })]]),
    });
    const paused = await generateText({ model: first, tools, prompt: "mail both", stopWhen: stepCountIs(3) });
    expect(log).toEqual([]);
    const requests = paused.content.filter((p) => p.type === "tool-approval-request");
    expect(requests.map((r) => r.toolCall.toolCallId)).toEqual(["m1", "m2"]);

    const byCall = Object.fromEntries(requests.map((r) => [r.toolCall.toolCallId, r.approvalId]));
    const answers: ModelMessage = {
      role: "tool",
      content: [
        { type: "tool-approval-response", approvalId: byCall.m1 as string, approved: true },
        { type: "tool-approval-response", approvalId: byCall.m2 as string, approved: false, reason: "not bob" },
      ],
    };
    const second = new MockLanguageModelV3({ doGenerate: generateResults(["both handled"]) });
    const resumed = await generateText({
      model: second,
      tools,
      messages: [{ role: "user", content: "mail both" }, ...paused.response.messages, answers],
      stopWhen: stepCountIs(3),
    });
    expect(resumed.text).toBe("both handled");
    // The approved call ran through the chain (the before-hook's rewrite reached the tool); the denied one never ran.
    expect(log).toEqual(["ann@example.com"]);
    const results = toolResultsIn(second.doGenerateCalls[0]?.prompt);
    expect(results.m1).toEqual({ type: "text", value: "sent to ann@example.com" });
    expect(results.m2).toEqual({ type: "execution-denied", reason: "not bob" });
  });
});
