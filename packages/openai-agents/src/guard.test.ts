import { Agent, handoff, run, setTracingDisabled, tool } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks, Agent as ToolwareAgent, toolwareCode } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, type OpenAIAgentsCall, openAIAgentsCall } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

const readFile = (seen: unknown[] = []) =>
  tool({
    name: "read_file",
    description: "Reads a file",
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      seen.push(path);
      return `contents of ${path}: api_key=sk-proj-abc123def456ghi789jkl`;
    },
  });

describe("guardAgent with the SDK's own loop", () => {
  it("a rewritten input reaches the tool, serialised back", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      (ctx.toolInput as { path: string }).path = `/sandbox/${(ctx.toolInput as { path: string }).path}`;
    });
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "a.txt" }, { callId: "c1" })],
      [assistantMessage("ok")],
    ]);
    const agent = guardAgent(new Agent({ name: "a", model, tools: [readFile(seen)] }), hooks);
    const result = await run(agent, "read a.txt");
    expect(seen).toEqual(["/sandbox/a.txt"]);
    expect(result.finalOutput).toBe("ok");
  });

  it("a guardrail block reaches the model's next turn with the reason; the app sees blocked", async () => {
    const seen: unknown[] = [];
    const outcomes: ToolCallOutcome[] = [];
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["read_file"] }));
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "a.txt" }, { callId: "c1" })],
      [assistantMessage("ok")],
    ]);
    const agent = guardAgent(new Agent({ name: "a", model, tools: [readFile(seen)] }), hooks, {
      onOutcome: (o) => outcomes.push(o),
    });
    await run(agent, "read");
    expect(seen).toEqual([]);
    const output = String(toolOutputs(model.calls[1]?.request).c1);
    expect(output).toMatch(/^Tool execution blocked by hook\. Tool: read_file\. Reason: .*deny list/);
    expect(outcomes.map((o) => [o.status, o.callId])).toEqual([["blocked", "c1"]]);
  });

  it("a redacted result reaches the model", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "a.txt" }, { callId: "c1" })],
      [assistantMessage("ok")],
    ]);
    await run(guardAgent(new Agent({ name: "a", model, tools: [readFile()] }), hooks), "read");
    const output = String(toolOutputs(model.calls[1]?.request).c1);
    expect(output).toContain("contents of a.txt");
    expect(output).not.toContain("sk-proj-abc123def456ghi789jkl");
  });

  it("a tool's error reaches the model (errorFunction: null), and a hidden one is still an error", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const boom = tool({
      name: "boom",
      description: "fails",
      parameters: z.object({}),
      errorFunction: null,
      execute: () => {
        throw new Error("disk full");
      },
    });
    const hidden = tool({
      name: "hidden",
      description: "fails quietly",
      parameters: z.object({}),
      execute: () => {
        throw new Error("secret reason");
      },
    });
    const model = new ScriptedModel([
      [functionCall("boom", {}, { callId: "b1" }), functionCall("hidden", {}, { callId: "h1" })],
      [assistantMessage("ok")],
    ]);
    const hooks = new ToolHooks();
    await run(
      guardAgent(new Agent({ name: "a", model, tools: [boom, hidden] }), hooks, { onOutcome: (o) => outcomes.push(o) }),
      "go",
    );
    const outputs = toolOutputs(model.calls[1]?.request);
    expect(outputs.b1).toBe("Tool execution failed. Tool: boom. Error: disk full");
    expect(outputs.h1).toBe("Tool execution failed. Tool: hidden. Error: toolware: the tool failed");
    expect(String(outputs.h1)).not.toContain("secret reason");
    const byId = Object.fromEntries(outcomes.map((o) => [o.callId, o]));
    expect(byId.b1?.status).toBe("error");
    expect(toolwareCode(byId.h1?.error)).toBe("TOOLWARE_OPENAI_ERROR_HIDDEN");
  });

  it("three parallel calls each run their own chain: a rate limit of 2 lets exactly 2 through", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    let running = 0;
    let peak = 0;
    let allowed = 0;
    hooks.use(async (ctx, next) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      if (allowed >= 2) return ctx.block("rate limit: 2 calls");
      allowed++;
      await next();
    });
    const calls = ["x", "y", "z"].map((p, i) => functionCall("read_file", { path: p }, { callId: `p${i}` }));
    const model = new ScriptedModel([calls, [assistantMessage("ok")]]);
    await run(guardAgent(new Agent({ name: "a", model, tools: [readFile(seen)] }), hooks), "go");
    expect(peak).toBe(3);
    expect(seen).toHaveLength(2);
    const outputs = Object.values(toolOutputs(model.calls[1]?.request)).map(String);
    expect(outputs.filter((o) => o.startsWith("contents of"))).toHaveLength(2);
    expect(outputs.filter((o) => o.includes("rate limit: 2 calls"))).toHaveLength(1);
  });

  it("an abort reaches the tool: the run's signal, and a hook's timeout through toolware's signal", async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const slow = tool({
      name: "slow",
      description: "waits",
      parameters: z.object({}),
      errorFunction: null,
      execute: (_input, _ctx, details) =>
        new Promise<string>((_resolve, reject) => {
          signals.push(details?.signal);
          details?.signal?.addEventListener("abort", () => reject(new Error("stopped")));
        }),
    });
    // A hook bounds the call: toolware's signal, which the tool holds, aborts after 30 ms.
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.linkSignal(AbortSignal.timeout(30)));
    const outcomes: ToolCallOutcome[] = [];
    const model = new ScriptedModel([[functionCall("slow", {}, { callId: "s1" })], [assistantMessage("ok")]]);
    await run(
      guardAgent(new Agent({ name: "a", model, tools: [slow] }), hooks, { onOutcome: (o) => outcomes.push(o) }),
      "go",
    );
    expect(signals[0]?.aborted).toBe(true);
    expect(outcomes.map((o) => [o.callId, o.status])).toEqual([["s1", "error"]]);
    expect(String(toolOutputs(model.calls[1]?.request).s1)).toMatch(/^Tool execution failed\. Tool: slow\./);

    const controller = new AbortController();
    const model2 = new ScriptedModel([[functionCall("slow", {}, { callId: "s2" })], [assistantMessage("ok")]]);
    setTimeout(() => controller.abort(new Error("user left")), 20);
    const agent = guardAgent(new Agent({ name: "b", model: model2, tools: [slow] }), hooks);
    await run(agent, "go", { signal: controller.signal }).catch(() => undefined);
    expect(signals[1]?.aborted).toBe(true);
  });

  it("the trace and the events carry the SDK's call id; bindings come from the run context", async () => {
    const intern = new ToolwareAgent({ role: "intern" });
    const hooks = new ToolHooks();
    const ended: string[] = [];
    const seen: (OpenAIAgentsCall<{ user: string }> | undefined)[] = [];
    hooks.on("call:end", ({ ctx }) => ended.push(ctx.callId));
    hooks.before((ctx) => {
      seen.push(openAIAgentsCall<{ user: string }>(ctx));
      if (ctx.agent?.role === "intern") ctx.block("interns read nothing");
    });
    const outcomes: ToolCallOutcome[] = [];
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "a" }, { callId: "call_7f3" })],
      [assistantMessage("ok")],
    ]);
    const agent = guardAgent(new Agent<{ user: string }>({ name: "a", model, tools: [readFile()] }), hooks, {
      bind: ({ context }) => ({ agent: context.user === "ann" ? intern : undefined }),
      onOutcome: (o) => outcomes.push(o),
    });
    await run(agent, "go", { context: { user: "ann" } });
    expect(ended).toEqual(["call_7f3"]);
    expect(outcomes[0]?.callId).toBe("call_7f3");
    expect(outcomes[0]?.status).toBe("blocked");
    expect(seen[0]?.context.user).toBe("ann");
    expect(seen[0]?.toolCall?.callId).toBe("call_7f3");
    expect(seen[0]?.input).toEqual({ path: "a" });
  });

  it("guards the tools of handoff targets and of agents used as tools, keeping every FunctionTool field", async () => {
    const hooks = new ToolHooks();
    const blocked: string[] = [];
    hooks.before((ctx) => {
      blocked.push(ctx.toolName);
      ctx.block("no");
    });
    const inner = new Agent({ name: "inner", tools: [readFile()] });
    const target = new Agent({ name: "target", tools: [readFile()] });
    const t = tool({
      name: "t",
      description: "d",
      parameters: z.object({ q: z.string() }),
      strict: true,
      needsApproval: false,
      timeoutMs: 5000,
      isEnabled: true,
      execute: () => "x",
    });
    const before = { ...t };
    const outer = new Agent({
      name: "outer",
      tools: [t, inner.asTool({ toolName: "ask_inner", toolDescription: "d" })],
      handoffs: [handoff(target)],
    });
    guardAgent(outer, hooks, { agents: [inner] });
    for (const key of [
      "name",
      "description",
      "parameters",
      "strict",
      "timeoutMs",
      "timeoutBehavior",
      "isEnabled",
      "inputGuardrails",
      "outputGuardrails",
    ] as const) {
      expect(t[key]).toBe(before[key]);
    }
    expect(t.invoke).not.toBe(before.invoke);
    for (const a of [inner, target]) {
      const ft = a.tools[0];
      if (ft?.type !== "function") throw new Error("expected a function tool");
      expect(await ft.invoke({ context: {} } as never, '{"path":"a"}')).toMatch(/^Tool execution blocked by hook/);
    }
    expect(blocked).toEqual(["read_file", "read_file"]);
  });

  it("guards a tool added to the agent after guardAgent, when the run lists it", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["read_file"] }));
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "a" }, { callId: "c1" })],
      [assistantMessage("ok")],
    ]);
    const agent = guardAgent(new Agent({ name: "a", model }), hooks);
    agent.tools.push(readFile(seen));
    await run(agent, "go");
    expect(seen).toEqual([]);
    expect(String(toolOutputs(model.calls[1]?.request).c1)).toMatch(/^Tool execution blocked by hook/);
  });

  it("refuses what it cannot guard, and a typo in the options", () => {
    const hooks = new ToolHooks();
    expect(() => guardAgent({} as never, hooks)).toThrow(TypeError);
    expect(() => guardAgent(new Agent({ name: "a" }), {} as never)).toThrow(TypeError);
    try {
      guardAgent(new Agent({ name: "a" }), hooks, { onOutcom: () => {} } as never);
      expect.unreachable();
    } catch (e) {
      expect(toolwareCode(e)).toBe("TOOLWARE_UNKNOWN_OPTION");
    }
    const shared = new Agent({ name: "s", tools: [readFile()] });
    guardAgent(shared, hooks);
    // Guarded already, by the same stack or another: refused (a second guard would change nothing, or run two chains).
    for (const again of [hooks, new ToolHooks()]) {
      try {
        guardAgent(shared, again);
        expect.unreachable();
      } catch (e) {
        expect(toolwareCode(e)).toBe("TOOLWARE_OPENAI_ALREADY_GUARDED");
        expect((e as Error).message).toMatch(/^toolware: agent s is already guarded/);
      }
    }
  });
});
