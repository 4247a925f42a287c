import { BasePlugin, type BaseTool, type Context, FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { retry } from "@toolware/packs/retry";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toolwarePlugin } from "./index.js";
import { call, responsesIn, ScriptedLlm, turn } from "./test-fixtures.js";

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return [toolwareCode(e), (e as Error).message];
  }
  return undefined;
};

function counter(name = "count") {
  const runs: unknown[] = [];
  const tool = new FunctionTool({
    name,
    description: "counts",
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      runs.push(n);
      return { n };
    },
  });
  return { runs, tool };
}

async function run(plugins: BasePlugin[], tool: BaseTool, args: unknown = { n: 1 }) {
  const model = new ScriptedLlm([[call(tool.name, args, "c1")]]);
  const runner = new InMemoryRunner({
    agent: new LlmAgent({ name: "a", model, tools: [tool] }),
    appName: "app",
    plugins,
  });
  const { id } = await runner.sessionService.createSession({ appName: "app", userId: "u" });
  await turn(runner, id, "go");
  return responsesIn(model.requests[1]?.contents).get("c1");
}

describe("toolwarePlugin's boundary", () => {
  it("refuses a typo, a wrong type and a missing ToolHooks eagerly, with a hint", () => {
    const hooks = new ToolHooks();
    expect(codeOf(() => toolwarePlugin(hooks, { bnd: () => undefined } as never))).toEqual([
      "TOOLWARE_UNKNOWN_OPTION",
      expect.stringMatching(/unknown option `bnd` \(did you mean `bind`\?\)/),
    ]);
    expect(codeOf(() => toolwarePlugin(hooks, { tools: { rm: { destructve: true } } } as never))?.[0]).toBe(
      "TOOLWARE_UNKNOWN_OPTION",
    );
    expect(codeOf(() => toolwarePlugin(hooks, { tools: { rm: { destructive: "yes" } } } as never))?.[0]).toBe(
      "TOOLWARE_INVALID_OPTION",
    );
    expect(codeOf(() => toolwarePlugin(hooks, { tools: { rm: { tags: [""] } } } as never))?.[0]).toBe(
      "TOOLWARE_INVALID_OPTION",
    );
    expect(codeOf(() => toolwarePlugin(hooks, { tools: [] } as never))?.[0]).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwarePlugin(hooks, { onOutcome: 1 } as never))?.[0]).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwarePlugin(hooks, { bind: 1 } as never))?.[0]).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwarePlugin(hooks, { name: " " }))?.[0]).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwarePlugin(hooks, null as never))?.[0]).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwarePlugin({} as never))?.[0]).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(toolwarePlugin(hooks, { name: "policy" }).name).toBe("policy");
  });

  it("two plugins of one ToolHooks run one chain per call; of two ToolHooks, both", async () => {
    const { runs, tool } = counter();
    const heard: string[] = [];
    const hooks = new ToolHooks();
    hooks.before(() => void heard.push("a"));
    await run([toolwarePlugin(hooks), toolwarePlugin(hooks, { name: "again" })], tool);
    expect([heard, runs]).toEqual([["a"], [1]]);
    const other = new ToolHooks();
    other.before(() => void heard.push("b"));
    await run([toolwarePlugin(hooks), toolwarePlugin(other, { name: "other" })], tool);
    expect([heard, runs]).toEqual([
      ["a", "a", "b"],
      [1, 1],
    ]);
  });

  it("lets the plugins after it run when it lets a call through unchanged (observers return undefined)", async () => {
    const { tool } = counter();
    const seen: string[] = [];
    class Observer extends BasePlugin {
      override async beforeToolCallback() {
        seen.push("before");
        return undefined;
      }
      override async afterToolCallback() {
        seen.push("after");
        return undefined;
      }
    }
    await run([toolwarePlugin(new ToolHooks()), new Observer("observer")], tool);
    expect(seen).toEqual(["before", "after"]);
  });

  it("a result taken by a plugin before it ends the chain as an error at the end of the run, and the developer hears why", async () => {
    const { tool } = counter();
    const outcomes: ToolCallOutcome[] = [];
    const advice: unknown[] = [];
    class Answers extends BasePlugin {
      override async afterToolCallback() {
        return { replaced: true };
      }
    }
    const hooks = new ToolHooks({ onListenerError: (_where, error) => void advice.push(error) });
    const response = await run(
      [new Answers("first"), toolwarePlugin(hooks, { onOutcome: (o) => outcomes.push(o) })],
      tool,
    );
    expect(response).toEqual({ replaced: true });
    expect(outcomes.map((o) => o.status)).toEqual(["error"]);
    expect(advice.map(toolwareCode)).toContain("TOOLWARE_ADK_RESULT_LOST");
  });

  it("a retry runs the tool again inside the chain", async () => {
    let attempts = 0;
    const flaky = new FunctionTool({
      name: "flaky",
      description: "fails once",
      parameters: z.object({}),
      execute: async () => {
        attempts++;
        if (attempts === 1) throw new Error("transient");
        return { ok: attempts };
      },
    });
    const hooks = new ToolHooks();
    hooks.use(retry({ retries: 2, minDelayMs: 0, maxDelayMs: 0 }));
    expect(await run([toolwarePlugin(hooks)], flaky, {})).toEqual({ ok: 2 });
  });

  it("an agent's own before-callback that answers stands for the tool: the chain sees its value", async () => {
    const { runs, tool } = counter();
    const outcomes: ToolCallOutcome[] = [];
    const model = new ScriptedLlm([[call("count", { n: 1 }, "c1")]]);
    const agent = new LlmAgent({ name: "a", model, tools: [tool], beforeToolCallback: () => ({ cached: 7 }) });
    const plugin = toolwarePlugin(new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    const runner = new InMemoryRunner({ agent, appName: "app", plugins: [plugin] });
    const { id } = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await turn(runner, id, "go");
    expect(runs).toEqual([]);
    expect(outcomes.map((o) => [o.status, o.raw])).toEqual([["ok", { cached: 7 }]]);
  });

  it("a context ADK never made (no call id) still runs the chain, with an empty call id", async () => {
    const { runs, tool } = counter();
    const hooks = new ToolHooks();
    const ids: string[] = [];
    hooks.before((ctx) => void ids.push(ctx.callId));
    const plugin = toolwarePlugin(hooks);
    const context = { agentName: "a", invocationContext: {} } as unknown as Context;
    expect(await plugin.beforeToolCallback({ tool, toolArgs: { n: 2 }, toolContext: context })).toBeUndefined();
    expect(
      await plugin.afterToolCallback({ tool, toolArgs: { n: 2 }, toolContext: context, result: { n: 2 } }),
    ).toBeUndefined();
    expect(runs).toEqual([]);
    expect(ids).toHaveLength(1);
  });
});
