import { AgentTool, type Context, FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";
import { defineTool, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { adkApprovals, outcomeToResponse, toolwarePlugin } from "./index.js";
import { answer, call, confirmationsIn, responsesIn, ScriptedLlm, type Turn, turn } from "./test-fixtures.js";

function recorder(name: string, seen: unknown[]) {
  return new FunctionTool({
    name,
    description: name,
    parameters: z.object({ n: z.number(), note: z.string().optional() }),
    execute: async (args) => {
      seen.push(args);
      return { done: args.n };
    },
  });
}

async function runOnce(turns: Turn[], agent: (model: ScriptedLlm) => LlmAgent, hooks: ToolHooks, options = {}) {
  const model = new ScriptedLlm(turns);
  const runner = new InMemoryRunner({ agent: agent(model), appName: "app", plugins: [toolwarePlugin(hooks, options)] });
  const { id } = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await turn(runner, id, "go");
  return { model, runner, id, events };
}

describe("edges", () => {
  it("`tools` tells hooks which tools are destructive and how they are tagged", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => (ctx.tool.destructive && ctx.tool.tags.includes("fs") ? ctx.block("no deletes") : undefined));
    const { model } = await runOnce(
      [[call("rm", { n: 1 }, "c1")]],
      (m) => new LlmAgent({ name: "a", model: m, tools: [recorder("rm", seen)] }),
      hooks,
      { tools: { rm: { destructive: true, tags: ["fs"] } } },
    );
    expect(seen).toEqual([]);
    expect(String(responsesIn(model.requests[1]?.contents).get("c1")?.error)).toMatch(/no deletes/);
  });

  it("a rewrite that drops a field drops it for the tool too", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      delete (ctx.toolInput as { note?: string }).note;
    });
    await runOnce(
      [[call("w", { n: 1, note: "secret" }, "c1")]],
      (m) => new LlmAgent({ name: "a", model: m, tools: [recorder("w", seen)] }),
      hooks,
    );
    expect(seen).toEqual([{ n: 1 }]);
  });

  it("a tool shared by the root agent and an AgentTool's agent runs one chain per call", async () => {
    const seen: unknown[] = [];
    const heard: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => void heard.push(`${ctx.toolName}:${ctx.callId}`));
    const shared = recorder("w", seen);
    const inner = new LlmAgent({
      name: "helper",
      description: "helps",
      model: new ScriptedLlm([[call("w", { n: 2 }, "in")]]),
      tools: [shared],
    });
    await runOnce(
      [[call("w", { n: 1 }, "c1"), call("helper", { request: "go" }, "c2")]],
      (m) => new LlmAgent({ name: "a", model: m, tools: [shared, new AgentTool({ agent: inner })] }),
      hooks,
    );
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    expect(heard).toEqual(["w:c1", "helper:c2", "w:in"]);
  });

  it("an AgentTool whose agent another ToolHooks guards is refused (TOOLWARE_ADK_ALREADY_GUARDED)", async () => {
    const seen: unknown[] = [];
    const inner = new LlmAgent({
      name: "helper",
      description: "helps",
      model: new ScriptedLlm([[call("w", { n: 2 }, "in")]]),
      tools: [recorder("w", seen)],
    });
    const tool = new AgentTool({ agent: inner });
    await runOnce(
      [[call("helper", { request: "go" }, "c1")]],
      (m) => new LlmAgent({ name: "a", model: m, tools: [tool] }),
      new ToolHooks(),
    );
    const advice: unknown[] = [];
    const { model } = await runOnce(
      [[call("helper", { request: "go" }, "c1")]],
      (m) => new LlmAgent({ name: "b", model: m, tools: [tool] }),
      new ToolHooks({ onListenerError: (_w, e) => void advice.push(e) }),
    );
    expect(String(responsesIn(model.requests[1]?.contents).get("c1")?.error)).toMatch(
      /could not be run \(TOOLWARE_ADK_ALREADY_GUARDED\)/,
    );
    expect(advice).toHaveLength(1);
  });

  it('a hook whose policy is "throw" fails the run, as the app asked', async () => {
    const hooks = new ToolHooks();
    hooks.before(
      () => {
        throw new Error("stop everything");
      },
      { onError: "throw" },
    );
    const seen: unknown[] = [];
    const { events } = await runOnce(
      [[call("w", { n: 1 }, "c1")]],
      (m) => new LlmAgent({ name: "a", model: m, tools: [recorder("w", seen)] }),
      hooks,
    );
    // ADK ends the run with an error event naming the plugin.
    const errors = events.map((e) => (e as { errorMessage?: string }).errorMessage).filter((m) => m !== undefined);
    expect(errors).toEqual([expect.stringMatching(/Error in plugin 'toolware'.*HookFailedError.*stop everything/)]);
    expect(seen).toEqual([]);
  });

  it("an approval of arguments a hook before the gate changed since is refused", async () => {
    const seen: unknown[] = [];
    let n = 0;
    const hooks = new ToolHooks({ humanInput: adkApprovals(), onListenerError: () => {} });
    hooks.before(
      (ctx) => {
        (ctx.toolInput as { note?: string }).note = `stamp ${++n}`;
      },
      { priority: 10 },
    );
    hooks.use(approval({ tools: ["w"] }));
    const { model, runner, id, events } = await runOnce(
      [[call("w", { n: 1 }, "c1")]],
      (m) => new LlmAgent({ name: "a", model: m, tools: [recorder("w", seen)] }),
      hooks,
    );
    await turn(runner, id, answer(String(confirmationsIn(events)[0]?.id), true));
    expect(seen).toEqual([]);
    expect(String(responsesIn(model.requests.at(-1)?.contents).get("c1")?.error)).toMatch(/given for other arguments/);
  });

  it("a call without an id cannot be asked about through ADK", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const hooks = new ToolHooks({ humanInput: adkApprovals(), onListenerError: () => {} });
    hooks.use(approval());
    const plugin = toolwarePlugin(hooks, { onOutcome: (o) => outcomes.push(o) });
    const context = { agentName: "a", invocationContext: {} } as unknown as Context;
    const response = await plugin.beforeToolCallback({
      tool: recorder("w", []),
      toolArgs: { n: 1 },
      toolContext: context,
    });
    expect(String(response?.error)).toMatch(/the call has no id/);
    expect(outcomes.map((o) => o.status)).toEqual(["blocked"]);
  });

  it("maps every outcome to an object ADK hands the model", async () => {
    const hooks = new ToolHooks();
    const text = defineTool({ name: "t", execute: () => "plain" });
    expect(outcomeToResponse(await hooks.invoke(text, {}), text)).toEqual({ result: "plain" });
    const list = defineTool({ name: "l", execute: () => [1, 2] });
    expect(outcomeToResponse(await hooks.invoke(list, {}), list)).toEqual({ results: [1, 2] });
    const changed = new ToolHooks();
    changed.after((ctx) => {
      ctx.toolResult = "[redacted]";
    });
    expect(outcomeToResponse(await changed.invoke(text, {}), text)).toEqual({ result: "[redacted]" });
    const failing = defineTool({
      name: "f",
      execute: () => ({}),
      formatResult: () => {
        throw new Error("cannot format");
      },
    });
    const outcome = await hooks.invoke(failing, {});
    expect(outcomeToResponse({ ...outcome, status: "ok", result: '{"a":1}' }, failing)).toEqual({ a: 1 });
  });
});
