import { describe, expect, it, vi } from "vitest";
import { defineTool, ToolHooks } from "./index.js";

function counted() {
  const execute = vi.fn((input: { q?: string }) => `ran:${input.q ?? ""}`);
  return { execute, tool: defineTool({ name: "search", execute }) };
}

describe("before-hook return values", () => {
  it.each([
    [0, "ok"],
    ["", "ok"],
    [null, "ok"],
    [undefined, "ok"],
    [true, "ok"],
    [false, "blocked"],
  ])("a return of %j leaves the call %s", async (value, status) => {
    const hooks = new ToolHooks();
    const { tool, execute } = counted();
    hooks.before(() => value as never);
    const outcome = await hooks.invoke(tool, {});
    expect(outcome.status).toBe(status);
    expect(execute).toHaveBeenCalledTimes(status === "ok" ? 1 : 0);
  });

  it("treats a promise of false as a block too", async () => {
    const hooks = new ToolHooks();
    const { tool, execute } = counted();
    hooks.before(async () => false);
    await expect(hooks.invoke(tool, {})).resolves.toMatchObject({ status: "blocked" });
    expect(execute).not.toHaveBeenCalled();
  });
});

describe("blocking", () => {
  it("uses the CrewAI message without a reason and appends a reason when given", async () => {
    const hooks = new ToolHooks();
    const { tool } = counted();
    const off = hooks.before(() => false);
    await expect(hooks.invoke(tool, {})).resolves.toMatchObject({
      status: "blocked",
      result: "Tool execution blocked by hook. Tool: search",
      reason: undefined,
      raw: undefined,
    });
    off();
    hooks.before((ctx) => ctx.block("queries about cats are off limits"));
    await expect(hooks.invoke(tool, {})).resolves.toMatchObject({
      status: "blocked",
      result: "Tool execution blocked by hook. Tool: search. Reason: queries about cats are off limits",
      reason: "queries about cats are off limits",
    });
  });

  it("lets the message be configured", async () => {
    const hooks = new ToolHooks({ messages: { blocked: (tool, reason) => `no ${tool} (${reason ?? "-"})` } });
    hooks.before((ctx) => ctx.block("policy"));
    await expect(hooks.invoke(counted().tool, {})).resolves.toMatchObject({ result: "no search (policy)" });
  });

  it("skips every hook inside the blocking one, and the tool", async () => {
    const hooks = new ToolHooks();
    const { tool, execute } = counted();
    const inner = vi.fn();
    hooks.use(async (ctx, next) => {
      ctx.block("stop");
      await next();
    });
    hooks.before(inner);
    hooks.use(async (_ctx, next) => {
      inner();
      await next();
    });
    const outcome = await hooks.invoke(tool, {});
    expect(outcome.status).toBe("blocked");
    expect(inner).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
  });

  it("lets after-hooks that wrap the block rewrite the blocked message", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => false);
    hooks.after((ctx) => `${ctx.toolResult} — ask a human instead`);
    const outcome = await hooks.invoke(counted().tool, {});
    expect(outcome).toMatchObject({
      status: "blocked",
      result: "Tool execution blocked by hook. Tool: search — ask a human instead",
    });
  });

  it("withholds the tool's result when an after-hook blocks on the way out", async () => {
    const hooks = new ToolHooks();
    const { tool, execute } = counted();
    const seen: (string | undefined)[] = [];
    hooks.after((ctx) => {
      if (ctx.toolResult?.includes("secret")) ctx.block("output contains a secret");
      return "this string does not override the block";
    });
    hooks.after((ctx) => {
      seen.push(ctx.toolResult);
    });
    const outcome = await hooks.invoke(tool, { q: "secret" });
    expect(execute).toHaveBeenCalledTimes(1);
    expect(outcome).toMatchObject({
      status: "blocked",
      reason: "output contains a secret",
      result: "Tool execution blocked by hook. Tool: search. Reason: output contains a secret",
      raw: undefined,
    });
    expect(seen).toEqual(["Tool execution blocked by hook. Tool: search. Reason: output contains a secret"]);
    expect(outcome.trace.map((t) => t.action)).toEqual(["blocked", "proceeded"]);
  });

  it("withholds the result when a middleware blocks after next()", async () => {
    const hooks = new ToolHooks();
    hooks.use(async (ctx, next) => {
      await next();
      ctx.block("guardrail");
    });
    const outcome = await hooks.invoke(counted().tool, { q: "x" });
    expect(outcome).toMatchObject({ status: "blocked", reason: "guardrail", raw: undefined });
    expect(outcome.trace[0]).toMatchObject({ action: "blocked", phase: "around" });
  });
});

describe("respond (substitute results)", () => {
  it("answers without running the tool or the hooks inside", async () => {
    const hooks = new ToolHooks();
    const { tool, execute } = counted();
    const inner = vi.fn();
    const outer = vi.fn((ctx) => `${ctx.toolResult} (cached)`);
    hooks.after(outer, { name: "outer" });
    hooks.use(async (ctx, next) => {
      ctx.respond({ hits: 3 });
      await next();
    });
    hooks.before(inner);
    const outcome = await hooks.invoke(tool, {});
    expect(outcome).toMatchObject({ status: "ok", raw: { hits: 3 }, result: '{"hits":3} (cached)' });
    expect(execute).not.toHaveBeenCalled();
    expect(inner).not.toHaveBeenCalled();
    expect(outcome.trace.map((t) => [t.hook, t.action])).toEqual([
      ["middleware#1", "substituted"],
      ["outer", "modified-result"],
    ]);
  });

  it("works from a before-hook and formats like a tool result", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "t", execute: () => [1], formatResult: (r: number[]) => `items: ${r.join(",")}` });
    hooks.before((ctx) => ctx.respond([4, 2]));
    await expect(hooks.invoke(tool, {})).resolves.toMatchObject({ status: "ok", result: "items: 4,2", raw: [4, 2] });
  });

  it("replaces a failed tool's result on the way out (fallback)", async () => {
    const hooks = new ToolHooks();
    hooks.use(async (ctx, next) => {
      await next();
      if (ctx.status === "error") ctx.respond("fallback answer");
    });
    const failing = defineTool({
      name: "flaky",
      execute: () => {
        throw new Error("down");
      },
    });
    await expect(hooks.invoke(failing, {})).resolves.toMatchObject({ status: "ok", result: "fallback answer" });
  });
});

describe("middleware that forgets next()", () => {
  it("ends the call as an error naming the middleware", async () => {
    const hooks = new ToolHooks();
    const { tool, execute } = counted();
    const failures: string[] = [];
    hooks.on("hook:error", ({ hook }) => failures.push(hook.name));
    hooks.after((ctx) => `seen: ${ctx.toolResult}`);
    hooks.use(async function forgetful() {}, {});
    const outcome = await hooks.invoke(tool, {});
    expect(execute).not.toHaveBeenCalled();
    expect(outcome.status).toBe("error");
    expect(String(outcome.error)).toMatch(
      /middleware forgetful returned without calling next\(\), ctx.respond\(\) or ctx.block\(\): did you forget `await next\(\)`\?/,
    );
    expect(outcome.result).toMatch(
      /^seen: Tool execution failed\. Tool: search\. Error: toolware: middleware forgetful/,
    );
    expect(outcome.trace[0]).toMatchObject({ hook: "forgetful", action: "failed", phase: "before" });
    expect(failures).toEqual(["forgetful"]);
  });

  it("waits for a next() that was called without await", async () => {
    const hooks = new ToolHooks();
    const slow = defineTool({ name: "slow", execute: () => new Promise((r) => setTimeout(() => r("done"), 5)) });
    hooks.use((_ctx, next) => {
      void next();
    });
    await expect(hooks.invoke(slow, {})).resolves.toMatchObject({ status: "ok", result: "done" });
  });
});
