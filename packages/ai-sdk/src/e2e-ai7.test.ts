import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { rateLimit } from "@toolware/packs/rate-limit";
import { generateText, type ModelMessage, stepCountIs, tool } from "ai7";
import { MockLanguageModelV4 } from "ai7/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { aiSdkApproval, aiSdkCall, guardTools, toolApproval } from "./index.js";
import { generateResults, type Turn, toolResultsIn } from "./test-fixtures.js";

// ai 7 declares node >= 22; the suite's Node 22 leg runs these.
const node22 = Number(process.versions.node.split(".")[0]) >= 22;
const call = (id: string, toolName: string, input: Record<string, unknown>) => ({ id, toolName, input });

function model(turns: readonly Turn[]) {
  return new MockLanguageModelV4({ doGenerate: generateResults(turns) as never });
}
const seen = (m: MockLanguageModelV4, n: number) => toolResultsIn(m.doGenerateCalls[n]?.prompt);

function sendTool(log: string[]) {
  return tool({
    inputSchema: z.object({ to: z.string() }),
    execute: async ({ to }) => {
      log.push(to);
      return { sentTo: to, token: "sk-secret99" };
    },
  });
}

describe.runIf(node22)("ai 7 end to end: generateText with MockLanguageModelV4", () => {
  it("rewrites reach the tool; a block is the SDK's automatic denial with the reason, and the tool never runs", async () => {
    const log: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      if (ctx.toolInput.to === "everyone") ctx.block("no mass mail");
      else ctx.toolInput.to = String(ctx.toolInput.to).trim();
    });
    const outcomes: ToolCallOutcome[] = [];
    const tools = guardTools(hooks, { send: sendTool(log) }, { onOutcome: (o) => outcomes.push(o) });
    const m = model([[call("a", "send", { to: "  ann " }), call("b", "send", { to: "everyone" })], "ok"]);
    const result = await generateText({
      model: m,
      tools,
      toolApproval: toolApproval(tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    expect(log).toEqual(["ann"]);
    const reason = "Tool execution blocked by hook. Tool: send. Reason: no mass mail";
    expect(seen(m, 1).b).toEqual({ type: "execution-denied", reason });
    expect(seen(m, 1).a).toMatchObject({ type: "json", value: { sentTo: "ann" } });
    const step = result.steps[0]?.content ?? [];
    expect(step.some((p) => p.type === "tool-approval-request" && p.isAutomatic === true)).toBe(true);
    expect(outcomes.map((o) => `${o.callId}:${o.status}`).sort()).toEqual(["a:ok", "b:blocked"]);
  });

  it("without toolApproval a block still reaches the model as execution-denied (through toModelOutput)", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.block("closed"));
    const m = model([[call("a", "send", { to: "ann" })], "ok"]);
    await generateText({
      model: m,
      tools: guardTools(hooks, { send: sendTool([]) }),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    expect(seen(m, 1).a).toEqual({
      type: "execution-denied",
      reason: "Tool execution blocked by hook. Tool: send. Reason: closed",
    });
  });

  it("an after-hook's redaction reaches the model as structured JSON", async () => {
    const hooks = new ToolHooks();
    hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-\w+/g, "[REDACTED]"));
    const tools = guardTools(hooks, { send: sendTool([]) });
    const m = model([[call("a", "send", { to: "ann" })], "ok"]);
    await generateText({ model: m, tools, toolApproval: toolApproval(tools), prompt: "x", stopWhen: stepCountIs(3) });
    expect(seen(m, 1).a).toEqual({ type: "json", value: { sentTo: "ann", token: "[REDACTED]" } });
  });

  it("three parallel calls each run their own chain: a rate limit of 2 lets exactly 2 through", async () => {
    const log: string[] = [];
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m" }));
    const tools = guardTools(hooks, { send: sendTool(log) });
    const m = model([
      [call("p1", "send", { to: "a" }), call("p2", "send", { to: "b" }), call("p3", "send", { to: "c" })],
      "ok",
    ]);
    await generateText({ model: m, tools, toolApproval: toolApproval(tools), prompt: "x", stopWhen: stepCountIs(3) });
    expect(log).toHaveLength(2);
    const types = Object.values(seen(m, 1)).map((r) => (r as { type: string }).type);
    expect(types.sort()).toEqual(["execution-denied", "json", "json"]);
  });

  it("an abort reaches the tool; call ids, events and the tool's own context reach the hooks", async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const slow = tool({
      inputSchema: z.object({}),
      contextSchema: z.object({ tenant: z.string() }),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((resolve) => {
          abortSignal?.addEventListener("abort", () => {
            sawAbort = true;
            resolve("stopped");
          });
          setTimeout(() => controller.abort(new Error("stop")), 5);
        }),
    });
    const hooks = new ToolHooks();
    const contexts: unknown[] = [];
    hooks.before((ctx) => {
      contexts.push(aiSdkCall(ctx)?.toolContext);
    });
    const ended: string[] = [];
    hooks.on("call:end", ({ ctx, outcome }) => ended.push(`${ctx.callId}/${outcome.callId}`));
    const tools = guardTools(hooks, { slow });
    await generateText({
      model: model([[call("s1", "slow", {})], "ok"]),
      tools,
      toolApproval: toolApproval(tools),
      toolsContext: { slow: { tenant: "acme" } },
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
      prompt: "x",
    }).catch(() => undefined);
    expect(sawAbort).toBe(true);
    expect(contexts).toEqual([{ tenant: "acme" }]);
    expect(ended).toEqual(["s1/s1"]);
  });

  it("approval through toolApproval's user-approval: approve one parallel call, deny the other", async () => {
    const log: string[] = [];
    const hooks = new ToolHooks();
    hooks.use(approval({ tools: "send", external: aiSdkApproval }));
    const tools = guardTools(hooks, { send: sendTool(log) });
    const first = model([[call("m1", "send", { to: "ann" }), call("m2", "send", { to: "bob" })]]);
    const paused = await generateText({
      model: first,
      tools,
      toolApproval: toolApproval(tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    expect(log).toEqual([]);
    const requests = paused.content.filter((p) => p.type === "tool-approval-request");
    expect(requests.map((r) => r.toolCall.toolCallId).sort()).toEqual(["m1", "m2"]);
    const id = Object.fromEntries(requests.map((r) => [r.toolCall.toolCallId, r.approvalId]));
    const answers = {
      role: "tool",
      content: [
        { type: "tool-approval-response", approvalId: id.m1, approved: true },
        { type: "tool-approval-response", approvalId: id.m2, approved: false, reason: "not bob" },
      ],
    } as ModelMessage;
    const second = model(["done"]);
    await generateText({
      model: second,
      tools,
      toolApproval: toolApproval(tools),
      messages: [{ role: "user", content: "x" }, ...paused.response.messages, answers],
      stopWhen: stepCountIs(3),
    });
    expect(log).toEqual(["ann"]);
    const results = seen(second, 0);
    expect(results.m1).toMatchObject({ type: "json", value: { sentTo: "ann" } });
    expect(results.m2).toEqual({ type: "execution-denied", reason: "not bob" });
  });
});
