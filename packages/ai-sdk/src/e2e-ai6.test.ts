import { Agent, type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AiSdkCallContext, aiSdkCall, guardTools } from "./index.js";
import { generateResults, type Turn, toolResultsIn } from "./test-fixtures.js";

function model(turns: readonly Turn[]) {
  return new MockLanguageModelV3({ doGenerate: generateResults(turns) });
}

/** The tool results the model read in its call number `n` (0-based). */
function seen(m: MockLanguageModelV3, n: number): Record<string, unknown> {
  return toolResultsIn(m.doGenerateCalls[n]?.prompt);
}

function weatherTool(received: unknown[]) {
  return tool({
    description: "Weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      received.push(city);
      return { city, tempC: 21 };
    },
  });
}

const call = (id: string, toolName: string, input: Record<string, unknown>) => ({ id, toolName, input });

describe("ai 6 end to end: generateText with the mock model", () => {
  it("a before-hook's input rewrite reaches the tool, and an untouched result is the tool's own value", async () => {
    const received: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      if (ctx.toolInput.city === "Paris, TX") ctx.toolInput.city = "Paris";
    });
    const m = model([[call("c1", "weather", { city: "Paris, TX" })], "done"]);
    const tools = guardTools(hooks, { weather: weatherTool(received) });
    const result = await generateText({ model: m, tools, prompt: "weather?", stopWhen: stepCountIs(3) });
    expect(received).toEqual(["Paris"]);
    expect(result.steps[0]?.toolResults[0]?.output).toEqual({ city: "Paris", tempC: 21 });
    expect(seen(m, 1).c1).toEqual({ type: "json", value: { city: "Paris", tempC: 21 } });
    // The SDK's own record of the call keeps what the model sent.
    expect(result.steps[0]?.toolCalls[0]?.input).toEqual({ city: "Paris, TX" });
  });

  it("a deep rewrite of the input (nested objects and arrays) never reaches the SDK's record", async () => {
    const received: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      const input = ctx.toolInput as { items: { n: number }[]; meta: Record<string, unknown> };
      (input.items[0] as { n: number }).n = 2;
      input.items.push({ n: 3 });
      input.meta.note = "rewritten";
    });
    const batch = tool({
      inputSchema: z.object({ items: z.array(z.object({ n: z.number() })), meta: z.record(z.string(), z.unknown()) }),
      execute: async (input) => {
        received.push(input);
        return "ok";
      },
    });
    const sent = { items: [{ n: 1 }], meta: { deep: [[{ a: null }]], empty: {} } };
    const m = model([[call("b1", "batch", sent)], "done"]);
    const result = await generateText({
      model: m,
      tools: guardTools(hooks, { batch }),
      prompt: "go",
      stopWhen: stepCountIs(3),
    });
    expect(received).toEqual([
      {
        items: [{ n: 2 }, { n: 3 }],
        meta: { deep: [[{ a: null }]], empty: {}, note: "rewritten" },
      },
    ]);
    expect(result.steps[0]?.toolCalls[0]?.input).toEqual(sent);
  });

  it("a guardrail block reaches the model's next turn as execution-denied with the reason; the tool never runs", async () => {
    const ran: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.block("deleting files is not allowed here"), { tools: "delete_file" });
    const deleteFile = tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        ran.push(path);
        return "deleted";
      },
    });
    const m = model([[call("d1", "delete_file", { path: "/etc/passwd" })], "ok"]);
    const outcomes: ToolCallOutcome[] = [];
    const tools = guardTools(hooks, { delete_file: deleteFile }, { onOutcome: (o) => outcomes.push(o) });
    await generateText({ model: m, tools, prompt: "clean up", stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    expect(seen(m, 1).d1).toEqual({
      type: "execution-denied",
      reason: "Tool execution blocked by hook. Tool: delete_file. Reason: deleting files is not allowed here",
    });
    expect(outcomes.map((o) => [o.status, o.reason, o.callId])).toEqual([
      ["blocked", "deleting files is not allowed here", "d1"],
    ]);
  });

  it("an after-hook's redaction reaches the model as structured JSON, not JSON inside a string", async () => {
    const hooks = new ToolHooks();
    hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-\w+/g, "[REDACTED]"));
    const lookup = tool({
      inputSchema: z.object({ user: z.string() }),
      execute: async ({ user }) => ({ user, apiKey: "sk-live123", plan: "pro" }),
      toModelOutput: ({ output }) => ({ type: "text", value: `key ${output.apiKey}` }),
    });
    const m = model([[call("l1", "lookup", { user: "ann" })], "ok"]);
    const result = await generateText({
      model: m,
      tools: guardTools(hooks, { lookup }),
      prompt: "who?",
      stopWhen: stepCountIs(3),
    });
    const expected = { user: "ann", apiKey: "[REDACTED]", plan: "pro" };
    // The tool's own toModelOutput is for its own values: a changed result goes as the SDK's default json.
    expect(seen(m, 1).l1).toEqual({ type: "json", value: expected });
    expect(result.steps[0]?.toolResults[0]?.output).toEqual(expected);
    expect(JSON.stringify(m.doGenerateCalls[1]?.prompt)).not.toContain("sk-live123");
  });

  it("keeps the tool's own toModelOutput when no hook changed the result", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => undefined);
    const lookup = tool({
      inputSchema: z.object({ user: z.string() }),
      execute: async ({ user }) => ({ user, plan: "pro" }),
      toModelOutput: ({ output }) => ({ type: "text", value: `${output.user} is on ${output.plan}` }),
    });
    const m = model([[call("l1", "lookup", { user: "ann" })], "ok"]);
    await generateText({ model: m, tools: guardTools(hooks, { lookup }), prompt: "?", stopWhen: stepCountIs(3) });
    expect(seen(m, 1).l1).toEqual({ type: "text", value: "ann is on pro" });
  });

  it("three parallel calls of one step each run their own chain: a rate limit of 2 lets exactly 2 through", async () => {
    const received: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m" }));
    const ids: string[] = [];
    hooks.on("call:start", ({ ctx }) => ids.push(ctx.callId));
    const m = model([
      [
        call("p1", "weather", { city: "A" }),
        call("p2", "weather", { city: "B" }),
        call("p3", "weather", { city: "C" }),
      ],
      "ok",
    ]);
    const outcomes: ToolCallOutcome[] = [];
    const tools = guardTools(hooks, { weather: weatherTool(received) }, { onOutcome: (o) => outcomes.push(o) });
    await generateText({ model: m, tools, prompt: "3 cities", stopWhen: stepCountIs(3) });
    expect(received).toHaveLength(2);
    expect(ids.sort()).toEqual(["p1", "p2", "p3"]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["blocked", "ok", "ok"]);
    const results = seen(m, 1);
    const denied = Object.values(results).filter((r) => (r as { type: string }).type === "execution-denied");
    expect(denied).toHaveLength(1);
  });

  it("an abort reaches the tool", async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const slow = tool({
      inputSchema: z.object({}),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((resolve) => {
          abortSignal?.addEventListener("abort", () => {
            sawAbort = true;
            resolve("stopped");
          });
          setTimeout(() => controller.abort(new Error("user pressed stop")), 5);
        }),
    });
    const hooks = new ToolHooks();
    const m = model([[call("s1", "slow", {})], "ok"]);
    await generateText({
      model: m,
      tools: guardTools(hooks, { slow }),
      prompt: "go",
      abortSignal: controller.signal,
      stopWhen: stepCountIs(3),
    }).catch(() => undefined);
    expect(sawAbort).toBe(true);
  });

  it("trace, events and the outcome carry the SDK's call id; hooks read the SDK's context", async () => {
    const hooks = new ToolHooks();
    const seenCalls: (AiSdkCallContext | undefined)[] = [];
    hooks.before(function audit(ctx) {
      seenCalls.push(aiSdkCall(ctx));
    });
    const ended: string[] = [];
    hooks.on("call:end", ({ ctx, outcome }) => ended.push(`${ctx.callId}/${outcome.callId}`));
    const outcomes: ToolCallOutcome[] = [];
    const m = model([[call("call-42", "weather", { city: "Oslo" })], "ok"]);
    await generateText({
      model: m,
      tools: guardTools(hooks, { weather: weatherTool([]) }, { onOutcome: (o) => outcomes.push(o) }),
      prompt: "weather in Oslo",
      experimental_context: { tenant: "acme" },
      stopWhen: stepCountIs(3),
    });
    expect(ended).toEqual(["call-42/call-42"]);
    expect(outcomes[0]?.callId).toBe("call-42");
    expect(outcomes[0]?.trace.map((t) => t.hook)).toEqual(["audit"]);
    const sdk = seenCalls[0];
    expect(sdk?.toolCallId).toBe("call-42");
    expect(sdk?.toolName).toBe("weather");
    expect(sdk?.experimentalContext).toEqual({ tenant: "acme" });
    expect(sdk?.messages[0]).toMatchObject({ role: "user" });
  });

  it("a failing tool reaches the model as error-text, and the app sees status error", async () => {
    const hooks = new ToolHooks();
    const boom = tool({
      inputSchema: z.object({}),
      execute: async (): Promise<string> => {
        throw new Error("disk on fire");
      },
    });
    const outcomes: ToolCallOutcome[] = [];
    const m = model([[call("e1", "boom", {})], "ok"]);
    const result = await generateText({
      model: m,
      tools: guardTools(hooks, { boom }, { onOutcome: (o) => outcomes.push(o) }),
      prompt: "go",
      stopWhen: stepCountIs(3),
    });
    const output = seen(m, 1).e1 as { type: string; value: string };
    expect(output.type).toBe("error-text");
    expect(output.value).toContain("disk on fire");
    expect(outcomes[0]?.status).toBe("error");
    const error = result.steps[0]?.content.find((p) => p.type === "tool-error") as { error: unknown } | undefined;
    expect(toolwareCode(error?.error)).toBe("TOOLWARE_TOOL_FAILED");
  });

  it("binds the agent per call from the SDK's context; agent-layer hooks apply", async () => {
    const hooks = new ToolHooks();
    const junior = new Agent({ role: "junior" });
    const senior = new Agent({ role: "senior" });
    junior.before((ctx) => ctx.block("juniors may not check the weather"));
    const received: unknown[] = [];
    const m = model([[call("j1", "weather", { city: "A" })], "ok"]);
    await generateText({
      model: m,
      tools: guardTools(
        hooks,
        { weather: weatherTool(received) },
        {
          bind: (c) => ({ agent: (c.experimentalContext as { role: string }).role === "junior" ? junior : senior }),
        },
      ),
      prompt: "x",
      experimental_context: { role: "junior" },
      stopWhen: stepCountIs(3),
    });
    expect(received).toEqual([]);
    expect(seen(m, 1).j1).toMatchObject({ type: "execution-denied" });
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("no session");
      },
      "TOOLWARE_BIND_FAILED",
    ],
    ["returns a signal", () => ({ signal: AbortSignal.abort() }), "TOOLWARE_INVALID_BINDINGS"],
    ["returns a role string as agent", () => ({ agent: "admin" }), "TOOLWARE_INVALID_BINDINGS"],
    ["returns a promise", () => Promise.resolve({}), "TOOLWARE_BIND_FAILED"],
  ])("a bind that %s fails the call closed: the tool never runs", async (_name, bind, code) => {
    const received: unknown[] = [];
    const outcomes: ToolCallOutcome[] = [];
    const m = model([[call("b1", "weather", { city: "A" })], "ok"]);
    await generateText({
      model: m,
      tools: guardTools(
        new ToolHooks(),
        { weather: weatherTool(received) },
        { bind: bind as never, onOutcome: (o) => outcomes.push(o) },
      ),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    expect(received).toEqual([]);
    expect(outcomes[0]?.status).toBe("error");
    expect(toolwareCode(outcomes[0]?.error)).toBe(code);
    expect(seen(m, 1).b1).toMatchObject({ type: "error-text" });
  });
});
