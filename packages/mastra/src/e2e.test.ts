import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { mastraCall, mastraToolware } from "./index.js";
import { guardedAgent, mastraNode, resultsSeen, scripted, sendTool } from "./test-fixtures.js";

describe.runIf(mastraNode)("Mastra end to end: agent.generate with ai 6's MockLanguageModelV3", () => {
  it("a block skips the tool and its reason reaches the model's next request; a rewrite reaches the tool", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      if (ctx.toolInput.to === "everyone") ctx.block("no mass mail");
      else ctx.toolInput.to = String(ctx.toolInput.to).trim();
    });
    const outcomes: ToolCallOutcome[] = [];
    const tw = mastraToolware(hooks, { onOutcome: (o) => outcomes.push(o) });
    const log: unknown[] = [];
    const model = scripted(
      [
        ["a", "send", { to: "  ann " }],
        ["b", "send", { to: "everyone" }],
      ],
      "done",
    );
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }));
    const out = await agent.generate("go");
    expect(out.text).toBe("done");
    expect(log).toEqual([{ to: "ann" }]);
    const seen = resultsSeen(model, 1);
    expect(seen.b).toBe("Tool execution blocked by hook. Tool: send. Reason: no mass mail");
    expect(seen.a).toEqual({ sentTo: "ann", token: "sk-secret-123" });
    expect(outcomes.map((o) => [o.callId, o.status])).toEqual(
      expect.arrayContaining([
        ["a", "ok"],
        ["b", "blocked"],
      ]),
    );
  });

  it("the after-hooks' result (redaction) is what the model reads, through the output processor", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact({ patterns: [/sk-[a-z0-9-]+/g] }));
    const tw = mastraToolware(hooks);
    const model = scripted([["a", "send", { to: "ann" }]], "done");
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool([]) }));
    await agent.generate("go");
    const seen = JSON.stringify(resultsSeen(model, 1).a);
    expect(seen).not.toContain("sk-secret-123");
    expect(seen).toContain("ann");
  });

  it("an agent built without the processor fails its calls closed instead of leaking what the hooks redacted", async () => {
    const advice: unknown[] = [];
    const hooks = new ToolHooks({ onListenerError: (_where, error) => advice.push(error) });
    hooks.use(redact({ patterns: [/sk-[a-z0-9-]+/g] }));
    const tw = mastraToolware(hooks);
    const log: unknown[] = [];
    const model = scripted([["a", "send", { to: "ann" }]], "done");
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }, { processor: false }));
    await agent.generate("go");
    expect(log).toEqual([]);
    expect(resultsSeen(model, 1).a).toMatch(/the call could not be run \(TOOLWARE_MASTRA_PROCESSOR_MISSING\)/);
    expect(advice).toEqual([expect.objectContaining({ code: "TOOLWARE_MASTRA_PROCESSOR_MISSING" })]);
  });

  it("a rate limit is exact over parallel calls of one step and over sequential steps", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 3, per: "1m" }));
    const tw = mastraToolware(hooks);
    const log: unknown[] = [];
    const five = ["p1", "p2", "p3", "p4", "p5"].map((id) => [id, "send", { to: id }] as const);
    const model = scripted(five, [["s1", "send", { to: "s1" }]], [["s2", "send", { to: "s2" }]], "done");
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }));
    await agent.generate("go", { maxSteps: 5 });
    expect(log).toHaveLength(3);
    const parallel = resultsSeen(model, 1);
    const blocked = Object.values(parallel).filter((v) => typeof v === "string" && v.includes("blocked"));
    expect(blocked).toHaveLength(2);
    expect(resultsSeen(model, 2).s1).toMatch(/blocked/);
    expect(resultsSeen(model, 3).s2).toMatch(/blocked/);
  });

  it("hooks see Mastra's call id, agent and execution options", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[] = [];
    hooks.before((ctx) => {
      const call = mastraCall(ctx);
      seen.push([ctx.callId, call?.callId, call?.context.toolCallId, call?.metadata?.agentId, call?.toolName]);
    });
    const tw = mastraToolware(hooks);
    const model = scripted([["call_7", "send", { to: "ann" }]], "done");
    await tw.agent(guardedAgent(tw, model, { send: sendTool([]) })).generate("go");
    expect(seen).toEqual([["call_7", "call_7", "call_7", "ops", "send"]]);
  });

  it("a hook that throws fails the call closed: the tool never runs and the model reads a failure", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => {
      throw new Error("policy store down");
    });
    const tw = mastraToolware(hooks);
    const log: unknown[] = [];
    const model = scripted([["a", "send", { to: "ann" }]], "done");
    await tw.agent(guardedAgent(tw, model, { send: sendTool(log) })).generate("go");
    expect(log).toEqual([]);
    expect(resultsSeen(model, 1).a).toMatch(/^Tool execution (failed|blocked)/);
  });

  it("a failing bind fails the call closed; the model reads no developer detail", async () => {
    const hooks = new ToolHooks({ onListenerError: () => {} });
    const tw = mastraToolware(hooks, {
      bind: () => {
        throw new Error("secret internals");
      },
    });
    const log: unknown[] = [];
    const model = scripted([["a", "send", { to: "ann" }]], "done");
    await tw.agent(guardedAgent(tw, model, { send: sendTool(log) })).generate("go");
    expect(log).toEqual([]);
    expect(resultsSeen(model, 1).a).toMatch(/the call could not be run \(TOOLWARE_BIND_FAILED\)/);
    expect(JSON.stringify(resultsSeen(model, 1))).not.toContain("secret internals");
  });

  it("arguments that are not an object never reach the tool (Mastra spreads them into an object first)", async () => {
    const hooks = new ToolHooks();
    const tw = mastraToolware(hooks);
    const log: unknown[] = [];
    const model = scripted([["a", "send", "[1, 2]"]], "done");
    await tw.agent(guardedAgent(tw, model, { send: sendTool(log) })).generate("go");
    expect(log).toEqual([]);
    // Mastra hands the hook `{ "0": 1, "1": 2 }`: the chain runs on it, and the tool's schema refuses it.
    expect(JSON.stringify(resultsSeen(model, 1).a)).toContain("Tool input validation failed for send");
  });

  it("per-call hooks do not remove the chain: Mastra's replacement is composed with it", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => ctx.block("never"));
    const tw = mastraToolware(hooks);
    const log: unknown[] = [];
    const after: string[] = [];
    const model = scripted([["a", "send", { to: "ann" }]], "done", [["b", "send", { to: "bob" }]], "done");
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }));
    const own = { beforeToolCall: async () => undefined, afterToolCall: async () => void after.push("own") };
    await agent.generate("go", { hooks: own });
    await agent.generate("go", { hooks: tw.with({ afterToolCall: async () => void after.push("with") }) });
    expect(log).toEqual([]);
    expect(resultsSeen(model, 1).a).toMatch(/Reason: never/);
    expect(resultsSeen(model, 3).b).toMatch(/Reason: never/);
  });

  it("a per-call beforeToolCall that answers for the tool still goes through the chain's after-hooks", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact({ patterns: [/sk-[a-z0-9-]+/g] }));
    const tw = mastraToolware(hooks);
    const log: unknown[] = [];
    const model = scripted([["a", "send", { to: "ann" }]], "done");
    const agent = tw.agent(guardedAgent(tw, model, { send: sendTool(log) }));
    const answer = { proceed: false as const, output: { cached: "sk-cached-1" } };
    await agent.generate("go", { hooks: { beforeToolCall: async () => answer } });
    expect(log).toEqual([]);
    expect(JSON.stringify(resultsSeen(model, 1).a)).not.toContain("sk-cached-1");
  });

  it("agent() refuses an agent built without the guard's hooks, and guarding one agent twice", () => {
    const tw = mastraToolware(new ToolHooks());
    const other = mastraToolware(new ToolHooks());
    const model = scripted("done");
    expect(() => tw.agent(guardedAgent(other, model, {}))).toThrow(
      expect.objectContaining({ code: "TOOLWARE_MASTRA_HOOKS_MISSING" }),
    );
    const agent = tw.agent(guardedAgent(tw, model, {}, { hooks: tw.with({ afterToolCall: async () => {} }) }));
    expect(() => tw.agent(agent)).toThrow(expect.objectContaining({ code: "TOOLWARE_MASTRA_ALREADY_GUARDED" }));
  });
});
