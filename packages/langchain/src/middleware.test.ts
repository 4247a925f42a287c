import { tool } from "@langchain/core/tools";
import { Agent, type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { langchainCall, type ToolCallResult, toolwareMiddleware } from "@toolware/langchain";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

const weatherSeen: Array<{ city: string }> = [];
const weather = tool(
  async ({ city }: { city: string }) => {
    weatherSeen.push({ city });
    return `sunny in ${city}`;
  },
  { name: "weather", description: "The weather", schema: z.object({ city: z.string() }) },
);
const secret = tool(async () => "the key is api_key=sk-proj-abc123def456ghi789jkl", {
  name: "read_config",
  schema: z.object({}),
});
const boom = tool(
  async () => {
    throw new Error("kaboom");
  },
  { name: "boom", schema: z.object({}) },
);

describe("toolwareMiddleware in createAgent's own loop", () => {
  it("the rewritten arguments reach the tool, the trace carries LangChain's call id", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.toolInput.city = String(ctx.toolInput.city).toUpperCase();
    });
    const outcomes: ToolCallOutcome<ToolCallResult>[] = [];
    const model = modelCalling([{ name: "weather", args: { city: "paris" }, id: "call_rw1" }]);
    const agent = createAgent({
      model,
      tools: [weather],
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => outcomes.push(o) })],
    });
    weatherSeen.length = 0;
    await agent.invoke({ messages: [{ role: "user", content: "weather?" }] });
    expect(weatherSeen).toEqual([{ city: "PARIS" }]);
    const [seen] = toolMessagesSeen(model);
    expect(seen?.content).toBe("sunny in PARIS");
    expect(seen?.status).toBe("success");
    expect(outcomes.map((o) => [o.callId, o.status])).toEqual([["call_rw1", "ok"]]);
    expect(outcomes[0]?.trace.length).toBeGreaterThan(0);
  });

  it("a block reaches the model's next turn as an error ToolMessage with the reason and the call's id", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.block("no weather on Sundays"));
    const model = modelCalling([{ name: "weather", args: { city: "Oslo" }, id: "call_b1" }]);
    const agent = createAgent({ model, tools: [weather], middleware: [toolwareMiddleware(hooks)] });
    weatherSeen.length = 0;
    await agent.invoke({ messages: [{ role: "user", content: "weather?" }] });
    expect(weatherSeen).toEqual([]);
    const [seen] = toolMessagesSeen(model);
    expect(seen?.status).toBe("error");
    expect(seen?.tool_call_id).toBe("call_b1");
    expect(seen?.content).toContain("no weather on Sundays");
  });

  it("a tool error becomes an error ToolMessage; the hooks see status error", async () => {
    const hooks = new ToolHooks();
    const statuses: string[] = [];
    const model = modelCalling([{ name: "boom", args: {}, id: "call_e1" }]);
    const agent = createAgent({
      model,
      tools: [boom],
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => statuses.push(o.status) })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "go" }] });
    const [seen] = toolMessagesSeen(model);
    expect(seen?.status).toBe("error");
    expect(seen?.tool_call_id).toBe("call_e1");
    expect(seen?.content).toContain("kaboom");
    expect(statuses).toEqual(["error"]);
  });

  it("redacted results reach the model, the secret does not", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const model = modelCalling([{ name: "read_config", args: {}, id: "call_r1" }]);
    const agent = createAgent({ model, tools: [secret], middleware: [toolwareMiddleware(hooks)] });
    const result = await agent.invoke({ messages: [{ role: "user", content: "config?" }] });
    const [seen] = toolMessagesSeen(model);
    expect(seen?.content).toContain("[REDACTED]");
    expect(JSON.stringify(model.calls)).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(JSON.stringify(result.messages)).not.toContain("sk-proj-abc123def456ghi789jkl");
    expect(seen?.tool_call_id).toBe("call_r1");
  });

  it("three parallel calls each run their own chain: a rate limit of 2 lets exactly 2 through", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m" }));
    const ids: string[] = [];
    hooks.before((ctx) => {
      ids.push(ctx.callId);
    });
    const model = modelCalling([
      { name: "weather", args: { city: "A" }, id: "p1" },
      { name: "weather", args: { city: "B" }, id: "p2" },
      { name: "weather", args: { city: "C" }, id: "p3" },
    ]);
    const agent = createAgent({ model, tools: [weather], middleware: [toolwareMiddleware(hooks)] });
    weatherSeen.length = 0;
    await agent.invoke({ messages: [{ role: "user", content: "three" }] });
    const seen = toolMessagesSeen(model);
    expect(seen.map((m) => m.tool_call_id).sort()).toEqual(["p1", "p2", "p3"]);
    expect(seen.filter((m) => m.status === "success")).toHaveLength(2);
    expect(seen.filter((m) => m.status === "error")).toHaveLength(1);
    expect(weatherSeen).toHaveLength(2);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("bindings come from the runtime context and the state of each call", async () => {
    const admin = new Agent({ role: "admin" });
    const guest = new Agent({ role: "guest" });
    const hooks = new ToolHooks();
    const seen: Array<[string | undefined, number | undefined, string | undefined]> = [];
    hooks.before((ctx) => {
      const call = langchainCall<{ messages: unknown[] }, { user: string }>(ctx);
      seen.push([ctx.agent?.role, call?.state.messages.length, call?.runtime.context?.user]);
      if (ctx.agent?.role !== "admin") ctx.block("admins only");
    });
    const contextSchema = z.object({ user: z.string() });
    const run = async (user: string) => {
      const model = modelCalling([{ name: "weather", args: { city: "X" }, id: `ctx_${user}` }]);
      const agent = createAgent({
        model,
        tools: [weather],
        contextSchema,
        middleware: [
          toolwareMiddleware(hooks, {
            bind: ({ runtime }) => ({ agent: (runtime.context as { user?: string })?.user === "ann" ? admin : guest }),
          }),
        ],
      });
      await agent.invoke({ messages: [{ role: "user", content: "hi" }] }, { context: { user } });
      return toolMessagesSeen(model)[0]?.status;
    };
    expect(await run("ann")).toBe("success");
    expect(await run("bob")).toBe("error");
    expect(seen).toEqual([
      ["admin", 2, "ann"],
      ["guest", 2, "bob"],
    ]);
  });

  it("a throwing bind fails the call closed with a coded reason; the tool never runs; the app's error stays out of the model's text", async () => {
    const reported: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push([where, error]) });
    const model = modelCalling([{ name: "weather", args: { city: "Y" }, id: "call_bind" }]);
    const agent = createAgent({
      model,
      tools: [weather],
      middleware: [
        toolwareMiddleware(hooks, {
          bind: () => {
            throw new Error("no session");
          },
        }),
      ],
    });
    weatherSeen.length = 0;
    await agent.invoke({ messages: [{ role: "user", content: "hi" }] });
    const [seen] = toolMessagesSeen(model);
    expect(weatherSeen).toEqual([]);
    expect(seen?.status).toBe("error");
    expect(seen?.content).toBe(
      "Tool execution failed. Tool: weather. Error: the call could not be run (TOOLWARE_BIND_FAILED)",
    );
    // The developer learns why: the error (its cause the app's own) goes to onListenerError.
    expect(reported).toHaveLength(1);
    expect(reported[0]?.[0]).toBe("@toolware/langchain");
    expect(toolwareCode(reported[0]?.[1])).toBe("TOOLWARE_BIND_FAILED");
    expect(((reported[0] as [string, Error])[1].cause as Error).message).toBe("no session");
  });

  it("an abort of the run reaches the tool and ends the call as an error", async () => {
    const hooks = new ToolHooks();
    const statuses: string[] = [];
    let toolSignal: AbortSignal | undefined;
    const controller = new AbortController();
    const slow = tool(
      async (_input: Record<string, never>, config) => {
        toolSignal = config.signal;
        controller.abort(new Error("user pressed stop"));
        await new Promise((resolve) => setTimeout(resolve, 50));
        return "late";
      },
      { name: "slow", schema: z.object({}) },
    );
    const model = modelCalling([{ name: "slow", args: {}, id: "call_abort" }]);
    const agent = createAgent({
      model,
      tools: [slow],
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => statuses.push(o.status) })],
    });
    await expect(
      agent.invoke({ messages: [{ role: "user", content: "go" }] }, { signal: controller.signal }),
    ).rejects.toThrow();
    expect(toolSignal?.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(statuses).toEqual(["error"]);
  });
});
