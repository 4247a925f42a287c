// Every pack in one stack, under 10,000 concurrent calls: the counts must come out exact.
import { Agent, defineTool, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { analytics } from "./analytics/index.js";
import { approval } from "./approval/index.js";
import { cache } from "./cache/index.js";
import { circuitBreaker } from "./circuit-breaker/index.js";
import { forAgents } from "./conditional/index.js";
import { debugLog } from "./debug-log/index.js";
import { guardrails } from "./guardrails/index.js";
import { loopGuard } from "./loop-guard/index.js";
import { rateLimit } from "./rate-limit/index.js";
import { redact } from "./redact/index.js";
import { retry } from "./retry/index.js";
import { timeout } from "./timeout/index.js";
import { safePath, validate } from "./validate/index.js";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function buildTools() {
  const runs = { search: 0, weather: 0, flaky: 0, email: 0 };
  const tools = {
    search: defineTool({
      name: "web_search",
      execute: async ({ query }: { query: string }) => {
        runs.search++;
        await tick();
        return `results for ${query}`;
      },
    }),
    weather: defineTool({
      name: "get_weather",
      execute: async ({ city }: { city: string }) => {
        runs.weather++;
        await tick();
        return { city, tempC: city.length };
      },
    }),
    deleteFile: defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" }),
    readFile: defineTool({ name: "read_file", execute: ({ path }: { path: string }) => `contents of ${path}` }),
    sendEmail: defineTool({
      name: "send_email",
      execute: ({ to }: { to: string }) => {
        runs.email++;
        return `sent to ${to}`;
      },
    }),
    profile: defineTool({
      name: "fetch_profile",
      execute: ({ id }: { id: number }) => ({
        id,
        email: `user${id}@example.com`,
        token: `sk-live-${"a".repeat(20)}${id}`,
      }),
    }),
    flaky: defineTool({
      name: "flaky_api",
      execute: async (_input: { n: number }, { callId }) => {
        runs.flaky++;
        await tick();
        // Every call fails on its first attempt and succeeds on its second.
        if (!seenFlaky.has(callId)) {
          seenFlaky.add(callId);
          throw new Error("transient");
        }
        return "recovered";
      },
    }),
  };
  const seenFlaky = new Set<string>();
  return { tools, runs };
}

describe("all packs together", () => {
  it("runs 10,000 concurrent calls with exact counts", async () => {
    const { tools, runs } = buildTools();
    let logged = 0;
    let auditorSaw = 0;
    const stats = analytics();
    const cached = cache({ tools: "get_weather", ttl: "1h" });
    const limiter = rateLimit({ max: 1000, per: "1m", tools: "web_search" });
    const breaker = circuitBreaker({ failureThreshold: 1_000_000, tools: "flaky_api" });
    const hooks = new ToolHooks({
      humanInput: (request) => (request.prompt.includes("blocked@") ? "no" : "yes"),
    });
    hooks.use(stats);
    hooks.use(
      debugLog({ logger: { info: () => void logged++, warn: () => void logged++, error: () => void logged++ } }),
    );
    hooks.use(loopGuard({ maxRepeats: false, maxInWindow: 1_000_000, onWarn: () => {} }));
    hooks.use(guardrails({ deny: [{ tag: "destructive" }] }));
    hooks.use(validate({ schemas: { web_search: z.object({ query: z.string().min(3).trim() }) } }));
    hooks.use(safePath({ tools: "read_file", root: "/srv/data" }));
    hooks.use(approval({ tools: "send_email", timeoutMs: 45_000 }));
    hooks.use(limiter);
    hooks.use(cached);
    hooks.use(breaker);
    // Far above the whole run's duration: 10,000 calls start at once, and a loaded machine (CI, other
    // processes) must not make the last ones time out and the counts come out a few short.
    hooks.use(timeout({ ms: 45_000 }));
    hooks.use(retry({ retries: 2, tools: "flaky_api", sleep: async () => {} }));
    hooks.use(redact());
    hooks.use(
      forAgents("auditor").after(() => {
        auditorSaw++;
      }),
    );

    const auditor = new Agent({ role: "auditor" });
    const worker = new Agent({ role: "worker" });
    const calls: Promise<ToolCallOutcome>[] = [];
    for (let i = 0; i < 10_000; i++) {
      const agent = i % 10 === 0 ? auditor : worker;
      const slot = i % 10;
      let call: Promise<ToolCallOutcome>;
      if (slot < 3) call = hooks.invoke(tools.search, { query: `  query ${i}  ` }, { agent });
      else if (slot < 6) call = hooks.invoke(tools.weather, { city: `city-${i % 30}` }, { agent });
      else if (slot === 6) call = hooks.invoke(tools.deleteFile, {}, { agent });
      else if (slot === 7)
        call = hooks.invoke(tools.readFile, { path: i % 20 < 10 ? "a/b.txt" : "../../etc/passwd" }, { agent });
      else if (slot === 8)
        call = hooks.invoke(tools.sendEmail, { to: i % 40 < 20 ? `ok@x.io` : `blocked@x.io` }, { agent });
      else
        call =
          i % 20 === 9
            ? hooks.invoke(tools.profile, { id: i }, { agent })
            : hooks.invoke(tools.flaky, { n: i }, { agent });
      calls.push(call);
    }
    const outcomes = await Promise.all(calls);

    const by = (tool: string) => outcomes.filter((o) => o.toolName === tool);
    const count = (list: ToolCallOutcome[], status: string) => list.filter((o) => o.status === status).length;

    // rate limit: exactly 1,000 of the 3,000 searches run
    expect(by("web_search")).toHaveLength(3000);
    expect(count(by("web_search"), "ok")).toBe(1000);
    expect(count(by("web_search"), "blocked")).toBe(2000);
    expect(runs.search).toBe(1000);

    // cache: each distinct city runs once; every other call is answered by the cache
    const cities = new Set(outcomes.filter((o) => o.toolName === "get_weather").map((o) => o.result)).size;
    expect(cities).toBe(9);
    expect(count(by("get_weather"), "ok")).toBe(3000);
    expect(runs.weather).toBe(cities);
    const cacheStats = cached.stats();
    expect(cacheStats.misses).toBe(cities);
    expect(cacheStats.hits + cacheStats.dedupes).toBe(3000 - cities);

    // guardrails, safe paths and approvals
    expect(count(by("delete_file"), "blocked")).toBe(1000);
    expect(count(by("read_file"), "ok")).toBe(500);
    expect(count(by("read_file"), "blocked")).toBe(500);
    expect(count(by("send_email"), "ok")).toBe(500);
    expect(count(by("send_email"), "blocked")).toBe(500);
    expect(runs.email).toBe(500);

    // retry: every flaky call recovers on its second attempt
    expect(count(by("flaky_api"), "ok")).toBe(500);
    expect(runs.flaky).toBe(1000);

    // redaction: no secret reaches the agent
    for (const o of by("fetch_profile")) {
      expect(o.status).toBe("ok");
      expect(o.result).not.toMatch(/sk-live|@example\.com/);
    }

    // analytics totals match the outcomes exactly
    const snapshot = stats.stats();
    expect(snapshot.totals.count).toBe(10_000);
    expect(snapshot.totals.blocked).toBe(outcomes.filter((o) => o.status === "blocked").length);
    expect(snapshot.totals.ok).toBe(outcomes.filter((o) => o.status === "ok").length);
    expect(snapshot.totals.failures).toBe(0);
    expect(snapshot.tools.get_weather?.substituted).toBe(3000 - cities);
    expect(snapshot.tools.web_search?.blocked).toBe(2000);

    // observers saw every call
    expect(logged).toBeGreaterThanOrEqual(10_000);
    expect(auditorSaw).toBe(1000);
  }, 60_000);
});
