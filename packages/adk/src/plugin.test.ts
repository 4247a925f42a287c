import { AgentTool, FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";
import { Agent, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AdkCall, adkCall, toolwarePlugin } from "./index.js";
import { call, responsesIn, ScriptedLlm, type Turn, turn } from "./test-fixtures.js";

const readFile = (seen: unknown[] = []) =>
  new FunctionTool({
    name: "read_file",
    description: "Reads a file",
    parameters: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      seen.push(path);
      return { contents: `contents of ${path}: api_key=sk-proj-abc123def456ghi789jkl` };
    },
  });

async function session(turns: Turn[], tools: FunctionTool[], hooks: ToolHooks, options = {}) {
  const model = new ScriptedLlm(turns);
  const agent = new LlmAgent({ name: "ops", model, tools });
  const runner = new InMemoryRunner({ agent, appName: "app", plugins: [toolwarePlugin(hooks, options)] });
  const { id } = await runner.sessionService.createSession({ appName: "app", userId: "u", state: { role: "intern" } });
  return { model, runner, id };
}

describe("toolwarePlugin with ADK's own Runner", () => {
  it("a block's reason reaches the model's next request as { error }; the tool never runs", async () => {
    const seen: unknown[] = [];
    const outcomes: ToolCallOutcome[] = [];
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["read_file"] }));
    const s = await session([[call("read_file", { path: "a.txt" }, "c1")]], [readFile(seen)], hooks, {
      onOutcome: (o: ToolCallOutcome) => outcomes.push(o),
    });
    await turn(s.runner, s.id, "read a.txt");
    expect(seen).toEqual([]);
    const error = String(responsesIn(s.model.requests[1]?.contents).get("c1")?.error);
    expect(error).toMatch(/^Tool execution blocked by hook\. Tool: read_file\. Reason: .*deny list/);
    expect(outcomes.map((o) => [o.status, o.callId])).toEqual([["blocked", "c1"]]);
  });

  it("a rewritten input reaches the tool", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      const input = ctx.toolInput as { path: string };
      input.path = `/sandbox/${input.path}`;
    });
    const s = await session([[call("read_file", { path: "a.txt" }, "c1")]], [readFile(seen)], hooks);
    await turn(s.runner, s.id, "read a.txt");
    expect(seen).toEqual(["/sandbox/a.txt"]);
    expect(responsesIn(s.model.requests[1]?.contents).get("c1")?.contents).toMatch(/^contents of \/sandbox\/a\.txt/);
  });

  it("a redacted result reaches the model, still an object", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const s = await session([[call("read_file", { path: "a.txt" }, "c1")]], [readFile()], hooks);
    await turn(s.runner, s.id, "read");
    const response = responsesIn(s.model.requests[1]?.contents).get("c1");
    expect(String(response?.contents)).toMatch(/^contents of a\.txt: api_key=/);
    expect(JSON.stringify(response)).not.toContain("sk-proj-abc123def456ghi789jkl");
  });

  it("an unchanged result is ADK's own, and the agent's after-callback still runs", async () => {
    const afters: unknown[] = [];
    const model = new ScriptedLlm([[call("read_file", { path: "a.txt" }, "c1")]]);
    const agent = new LlmAgent({
      name: "ops",
      model,
      tools: [readFile()],
      afterToolCallback: ({ response }) => {
        afters.push(response);
        return undefined;
      },
    });
    const runner = new InMemoryRunner({ agent, appName: "app", plugins: [toolwarePlugin(new ToolHooks())] });
    const { id } = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    await turn(runner, id, "read");
    expect(afters).toEqual([{ contents: expect.stringMatching(/^contents of a\.txt/) }]);
  });

  it("a tool's error goes through the chain (onToolErrorCallback) and the model reads it", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const boom = new FunctionTool({
      name: "boom",
      description: "fails",
      parameters: z.object({}),
      execute: async () => {
        throw new Error("kaboom");
      },
    });
    const s = await session([[call("boom", {}, "c1")]], [boom], new ToolHooks(), {
      onOutcome: (o: ToolCallOutcome) => outcomes.push(o),
    });
    await turn(s.runner, s.id, "go");
    expect(outcomes.map((o) => o.status)).toEqual(["error"]);
    expect(String(responsesIn(s.model.requests[1]?.contents).get("c1")?.error)).toMatch(
      /^Tool execution failed\. Tool: boom\. Error: .*kaboom/,
    );
  });

  it("call ids are the model's function call ids; agent and state reach bind and hooks", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    const intern = new Agent({ role: "intern" });
    hooks.before((ctx) => {
      seen.push([ctx.callId, ctx.agent?.role, adkCall(ctx)?.agentName]);
    });
    const s = await session(
      [[call("read_file", { path: "a" }, "id-1"), call("read_file", { path: "b" }, "id-2")]],
      [readFile()],
      hooks,
      { bind: (c: AdkCall) => ({ agent: c.toolContext.state.get("role") === "intern" ? intern : undefined }) },
    );
    await turn(s.runner, s.id, "read");
    expect(seen).toEqual([
      ["id-1", "intern", "ops"],
      ["id-2", "intern", "ops"],
    ]);
  });

  it("a rate limit is exact over the sequential calls of one response and over concurrent runs", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 3, per: "1m" }));
    const tool = readFile(seen);
    const calls = (p: string): Turn[] => [
      [call("read_file", { path: `${p}1` }, `${p}1`), call("read_file", { path: `${p}2` }, `${p}2`)],
    ];
    const a = await session(calls("a"), [tool], hooks);
    const b = await session(calls("b"), [tool], hooks);
    await Promise.all([turn(a.runner, a.id, "go"), turn(b.runner, b.id, "go")]);
    expect(seen).toHaveLength(3);
    const errors = [
      ...responsesIn(a.model.requests[1]?.contents),
      ...responsesIn(b.model.requests[1]?.contents),
    ].filter(([, r]) => typeof r.error === "string");
    expect(errors).toHaveLength(1);
    expect(String(errors[0]?.[1].error)).toMatch(/rate limit/i);
  });

  it("arguments that are not an object never reach a hook or the tool, and the model reads why", async () => {
    const seen: unknown[] = [];
    let hooked = 0;
    const hooks = new ToolHooks();
    hooks.before(() => {
      hooked++;
    });
    const s = await session([[call("read_file", ["a.txt"], "c1")]], [readFile(seen)], hooks);
    await turn(s.runner, s.id, "read");
    expect([seen, hooked]).toEqual([[], 0]);
    expect(String(responsesIn(s.model.requests[1]?.contents).get("c1")?.error)).toMatch(
      /must be a JSON object of named fields, got an array \(TOOLWARE_INVALID_INPUT\)/,
    );
  });

  it("a hook that throws fails the call closed; a bind that throws too", async () => {
    const seen: unknown[] = [];
    const hooks = new ToolHooks({ onListenerError: () => {} });
    hooks.before(() => {
      throw new Error("policy store down");
    });
    const s = await session([[call("read_file", { path: "a" }, "c1")]], [readFile(seen)], hooks);
    await turn(s.runner, s.id, "read");
    expect(seen).toEqual([]);
    expect(String(responsesIn(s.model.requests[1]?.contents).get("c1")?.error)).toMatch(/^Tool execution/);

    const t = await session(
      [[call("read_file", { path: "a" }, "c1")]],
      [readFile(seen)],
      new ToolHooks({ onListenerError: () => {} }),
      {
        bind: () => {
          throw new Error("no user");
        },
      },
    );
    await turn(t.runner, t.id, "read");
    expect(seen).toEqual([]);
    expect(String(responsesIn(t.model.requests[1]?.contents).get("c1")?.error)).toMatch(
      /the call could not be run \(TOOLWARE_BIND_FAILED\)/,
    );
  });

  it("the tools of an agent used through an AgentTool run the chain too (ADK's inner Runner has no plugins)", async () => {
    const seen: unknown[] = [];
    const names: string[] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      names.push(ctx.toolName);
    });
    hooks.use(guardrails({ deny: ["read_file"] }));
    const innerModel = new ScriptedLlm([[call("read_file", { path: "secret" }, "in-1")]]);
    const researcher = new LlmAgent({
      name: "researcher",
      description: "reads",
      model: innerModel,
      tools: [readFile(seen)],
    });
    const s = await session([[call("researcher", { request: "read secret" }, "c1")]], [], hooks);
    (s.runner.agent as LlmAgent).tools.push(new AgentTool({ agent: researcher }));
    await turn(s.runner, s.id, "go");
    expect(names).toEqual(["researcher", "read_file"]);
    expect(seen).toEqual([]);
    expect(String(responsesIn(innerModel.requests[1]?.contents).get("in-1")?.error)).toMatch(/blocked by hook/);
  });
});
