import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { retry } from "@toolware/packs/retry";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { type CircuitBreakerOptions, type CircuitChange, circuitBreaker } from "./index.js";

// A tool whose next answers are scripted: "ok", "fail", or "hang" (settled by hand).
function scripted(name = "flaky_api") {
  const plan: string[] = [];
  const pending: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  let runs = 0;
  const tool = defineTool({
    name,
    execute: () => {
      runs++;
      const step = plan.shift() ?? "ok";
      if (step === "fail") throw new Error("upstream 503");
      if (step === "hang") return new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
      return "fine";
    },
  });
  return { tool, plan, pending, runs: () => runs };
}

function setup(options: CircuitBreakerOptions = {}) {
  let t = 1_000;
  const changes: string[] = [];
  const breaker = circuitBreaker({
    failureThreshold: 3,
    cooldownMs: 10_000,
    now: () => t,
    onStateChange: (c: CircuitChange) => changes.push(`${c.key}: ${c.from} -> ${c.to}`),
    ...options,
  });
  const hooks = new ToolHooks();
  hooks.use(breaker);
  return { hooks, breaker, changes, advance: (ms: number) => (t += ms) };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("circuitBreaker", () => {
  it("opens after N consecutive failures and answers fast, as blocked, without running the tool", async () => {
    const { hooks, breaker, changes } = setup();
    const api = scripted();
    api.plan.push("fail", "fail", "fail");
    for (let i = 0; i < 3; i++) expect((await hooks.invoke(api.tool, {})).status).toBe("error");
    expect(breaker.state("flaky_api")).toEqual({ state: "open", failures: 3, trials: 0, retryInMs: 10_000 });
    const fast = await hooks.invoke(api.tool, {});
    expect(fast).toMatchObject({ status: "blocked", reason: "circuit open for flaky_api, retry in 10s" });
    expect(fast.result).toBe(
      "Tool execution blocked by hook. Tool: flaky_api. Reason: circuit open for flaky_api, retry in 10s",
    );
    expect(api.runs()).toBe(3);
    expect(changes).toEqual(["flaky_api: closed -> open"]);
  });

  it("counts only consecutive failures: a success resets the count", async () => {
    const { hooks, breaker } = setup();
    const api = scripted();
    api.plan.push("fail", "fail", "ok", "fail", "fail");
    for (let i = 0; i < 5; i++) await hooks.invoke(api.tool, {});
    expect(breaker.state("flaky_api")).toMatchObject({ state: "closed", failures: 2 });
  });

  it("half-opens after the cool-down; a successful trial closes it", async () => {
    const { hooks, breaker, changes, advance } = setup();
    const api = scripted();
    api.plan.push("fail", "fail", "fail");
    for (let i = 0; i < 3; i++) await hooks.invoke(api.tool, {});
    advance(4_000);
    expect((await hooks.invoke(api.tool, {})).reason).toBe("circuit open for flaky_api, retry in 6s");
    advance(6_000);
    expect(breaker.state("flaky_api").state).toBe("half-open");
    expect(await hooks.invoke(api.tool, {})).toMatchObject({ status: "ok", result: "fine" });
    expect(breaker.state("flaky_api")).toEqual({ state: "closed", failures: 0, trials: 0 });
    expect(changes).toEqual([
      "flaky_api: closed -> open",
      "flaky_api: open -> half-open",
      "flaky_api: half-open -> closed",
    ]);
  });

  it("a failed trial opens it again for a full cool-down", async () => {
    const { hooks, breaker, advance } = setup();
    const api = scripted();
    api.plan.push("fail", "fail", "fail", "fail");
    for (let i = 0; i < 3; i++) await hooks.invoke(api.tool, {});
    advance(10_000);
    expect((await hooks.invoke(api.tool, {})).status).toBe("error");
    expect(breaker.state("flaky_api")).toMatchObject({ state: "open", retryInMs: 10_000 });
    expect((await hooks.invoke(api.tool, {})).status).toBe("blocked");
    expect(api.runs()).toBe(4);
  });

  it("lets exactly halfOpenMax concurrent trials through", async () => {
    const { hooks, breaker, advance } = setup({ halfOpenMax: 2 });
    const api = scripted();
    api.plan.push("fail", "fail", "fail", "hang", "hang");
    for (let i = 0; i < 3; i++) await hooks.invoke(api.tool, {});
    advance(10_000);
    const calls = Array.from({ length: 6 }, () => hooks.invoke(api.tool, {}));
    await flush();
    expect(api.runs()).toBe(5);
    expect(breaker.state("flaky_api")).toMatchObject({ state: "half-open", trials: 2 });
    const [first, second] = api.pending;
    first?.resolve("recovered");
    second?.reject(new Error("late failure"));
    const outcomes = await Promise.all(calls);
    expect(outcomes.map((o) => o.status)).toEqual(["ok", "error", "blocked", "blocked", "blocked", "blocked"]);
    expect(outcomes[2]?.reason).toBe("circuit half-open for flaky_api, trial call in progress, retry shortly");
    // The first trial closed the circuit: the late failure of the other trial belongs to a finished period.
    expect(breaker.state("flaky_api")).toEqual({ state: "closed", failures: 0, trials: 0 });
  });

  it("a late success of an earlier trial does not close a circuit another trial re-opened", async () => {
    const { hooks, breaker, advance } = setup({ halfOpenMax: 2 });
    const api = scripted();
    api.plan.push("fail", "fail", "fail", "hang", "hang");
    for (let i = 0; i < 3; i++) await hooks.invoke(api.tool, {});
    advance(10_000);
    const calls = [hooks.invoke(api.tool, {}), hooks.invoke(api.tool, {})];
    await flush();
    api.pending[0]?.reject(new Error("still down"));
    await calls[0];
    expect(breaker.state("flaky_api").state).toBe("open");
    api.pending[1]?.resolve("slow ok");
    await calls[1];
    expect(breaker.state("flaky_api").state).toBe("open");
  });

  it("frees the trial slot when the tool did not run", async () => {
    const { hooks, breaker, advance } = setup();
    const api = scripted();
    api.plan.push("fail", "fail", "fail");
    for (let i = 0; i < 3; i++) await hooks.invoke(api.tool, {});
    advance(10_000);
    const gate = hooks.before((ctx) => ctx.block("maintenance window"));
    expect(await hooks.invoke(api.tool, {})).toMatchObject({ status: "blocked", reason: "maintenance window" });
    expect(breaker.state("flaky_api")).toMatchObject({ state: "half-open", trials: 0 });
    gate();
    expect((await hooks.invoke(api.tool, {})).status).toBe("ok");
    expect(breaker.state("flaky_api").state).toBe("closed");
  });

  it("frees the trial slot when a throw-policy hook makes invoke reject", async () => {
    const { hooks, breaker, advance } = setup();
    const api = scripted();
    api.plan.push("fail", "fail", "fail");
    for (let i = 0; i < 3; i++) await hooks.invoke(api.tool, {});
    advance(10_000);
    // Registered after the breaker, so it runs inside it and makes its next() reject.
    const strict = hooks.use(
      async (_ctx, next) => {
        await next();
        throw new Error("audit sink down");
      },
      { onError: "throw" },
    );
    await expect(hooks.invoke(api.tool, {})).rejects.toThrow(/audit sink down/);
    expect(breaker.state("flaky_api")).toMatchObject({ state: "half-open", trials: 0 });
    strict();
    expect((await hooks.invoke(api.tool, {})).status).toBe("ok");
  });

  it("sees one outcome per call, after retries", async () => {
    const { hooks, breaker } = setup();
    hooks.use(retry({ retries: 2, sleep: () => Promise.resolve() }));
    const api = scripted();
    api.plan.push("fail", "fail", "ok", "fail", "fail", "fail");
    expect((await hooks.invoke(api.tool, {})).status).toBe("ok");
    expect((await hooks.invoke(api.tool, {})).status).toBe("error");
    expect(breaker.state("flaky_api")).toMatchObject({ state: "closed", failures: 1 });
  });

  it("keys circuits per tool by default, or by a key function", async () => {
    const { hooks, breaker } = setup({ failureThreshold: 1 });
    const a = scripted("a");
    const b = scripted("b");
    a.plan.push("fail");
    await hooks.invoke(a.tool, {});
    expect((await hooks.invoke(a.tool, {})).status).toBe("blocked");
    expect((await hooks.invoke(b.tool, {})).status).toBe("ok");

    const byRole = setup({ failureThreshold: 1, key: (ctx) => `${ctx.toolName}@${ctx.agent?.role ?? "-"}` });
    const alice = new Agent({ role: "alice" });
    const bob = new Agent({ role: "bob" });
    const c = scripted("c");
    c.plan.push("fail");
    await byRole.hooks.invoke(c.tool, {}, { agent: alice });
    expect((await byRole.hooks.invoke(c.tool, {}, { agent: alice })).reason).toMatch(/^circuit open for c@alice/);
    expect((await byRole.hooks.invoke(c.tool, {}, { agent: bob })).status).toBe("ok");
    expect(byRole.breaker.state("c@alice").state).toBe("open");
    expect(breaker.state("b").state).toBe("closed");
  });

  it("isFailure decides what counts; a throwing one counts as a failure and follows the hook policy", async () => {
    const { hooks, breaker } = setup({ failureThreshold: 1, isFailure: (ctx) => ctx.toolResult === "fine" });
    const api = scripted();
    expect((await hooks.invoke(api.tool, {})).status).toBe("ok");
    expect(breaker.state("flaky_api").state).toBe("open");

    const broken = setup({
      failureThreshold: 1,
      isFailure: () => {
        throw new Error("bad predicate");
      },
    });
    const outcome = await broken.hooks.invoke(scripted().tool, {});
    expect(outcome).toMatchObject({ status: "blocked", reason: expect.stringContaining("bad predicate") });
    expect(broken.breaker.state("flaky_api").state).toBe("open");
  });

  it("reset() closes one circuit or all of them; custom messages", async () => {
    const { hooks, breaker, changes } = setup({ failureThreshold: 1, message: (i) => `${i.toolName} is resting` });
    const a = scripted("a");
    const b = scripted("b");
    a.plan.push("fail");
    b.plan.push("fail");
    await hooks.invoke(a.tool, {});
    await hooks.invoke(b.tool, {});
    expect((await hooks.invoke(a.tool, {})).reason).toBe("a is resting");
    breaker.reset("a");
    expect(breaker.state("a").state).toBe("closed");
    expect(breaker.state("b").state).toBe("open");
    breaker.reset();
    expect(breaker.state("b").state).toBe("closed");
    expect(changes.slice(-2)).toEqual(["a: open -> closed", "b: open -> closed"]);
    const fixed = setup({ failureThreshold: 1, message: "try later" });
    a.plan.push("fail");
    await fixed.hooks.invoke(a.tool, {});
    expect((await fixed.hooks.invoke(a.tool, {})).reason).toBe("try later");
  });

  it("honours the tools filter", async () => {
    const { hooks } = setup({ failureThreshold: 1, tools: "db_*" });
    const web = scripted("web");
    web.plan.push("fail");
    await hooks.invoke(web.tool, {});
    expect((await hooks.invoke(web.tool, {})).status).toBe("ok");
  });

  it("matches a reference model on any sequence of outcomes and pauses", async () => {
    const step = fc.oneof(
      fc.constant("ok" as const),
      fc.constant("fail" as const),
      fc.integer({ min: 1, max: 15_000 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const { hooks, advance } = setup({ failureThreshold: 3, cooldownMs: 10_000 });
        const api = scripted();
        // Reference model: sequential calls, one trial at a time.
        let state: "closed" | "open" = "closed";
        let failures = 0;
        let openedAt = 0;
        let clock = 1_000;
        for (const s of steps) {
          if (typeof s === "number") {
            advance(s);
            clock += s;
            continue;
          }
          api.plan.push(s);
          const outcome = await hooks.invoke(api.tool, {});
          if (state === "open" && clock - openedAt < 10_000) {
            api.plan.pop();
            if (outcome.status !== "blocked") return false;
            continue;
          }
          const trial = state === "open";
          if (outcome.status !== (s === "ok" ? "ok" : "error")) return false;
          if (s === "ok") {
            state = "closed";
            failures = 0;
          } else if (trial || ++failures >= 3) {
            state = "open";
            openedAt = clock;
          }
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });

  it("rejects bad options eagerly", () => {
    expect(() => circuitBreaker(null as never)).toThrow(/^toolware\/circuit-breaker: /);
    expect(() => circuitBreaker({ failureThreshold: 0 })).toThrow(
      "toolware/circuit-breaker: `failureThreshold` must be a whole number ≥ 1",
    );
    expect(() => circuitBreaker({ halfOpenMax: 1.5 })).toThrow(/halfOpenMax/);
    expect(() => circuitBreaker({ cooldownMs: -1 })).toThrow(/cooldownMs/);
    expect(() => circuitBreaker({ key: "agent" as never })).toThrow(/`key` must be/);
    expect(() => circuitBreaker({ isFailure: "error" as never })).toThrow(/`isFailure` must be a function/);
    expect(() => circuitBreaker({ now: 5 as never })).toThrow(/`now`/);
    expect(() => circuitBreaker({ message: 5 as never })).toThrow(/`message`/);
    expect(vi.isFakeTimers()).toBe(false);
  });
});
