import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { memoryRateLimitStore, type RateLimitDecision, type RateLimitStore, rateLimit } from "./index.js";

function setup() {
  let t = 1_000_000;
  const clock = {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    set: (ms: number) => {
      t = ms;
    },
  };
  let runs = 0;
  const search = defineTool({
    name: "web_search",
    execute: async ({ query }: { query: string }) => {
      runs++;
      await Promise.resolve();
      return `results for ${query}`;
    },
  });
  const read = defineTool({ name: "read_file", execute: () => "content" });
  return { clock, search, read, runs: () => runs };
}

describe("rateLimit: sliding window", () => {
  it("allows max calls per window and tells the agent when to retry", async () => {
    const { clock, search, runs } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 3, per: "1m", now: clock.now }));
    for (let i = 0; i < 3; i++) {
      expect((await hooks.invoke(search, { query: `q${i}` })).status).toBe("ok");
      clock.advance(10_000);
    }
    const out = await hooks.invoke(search, { query: "q3" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("Rate limit exceeded for tool:web_search: at most 3 calls per 1m. Retry after 30s.");
    expect(out.result).toBe(`Tool execution blocked by hook. Tool: web_search. Reason: ${out.reason}`);
    expect(runs()).toBe(3);
  });

  it("frees a slot exactly when the oldest call leaves the window", async () => {
    const { clock, search } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "10s", now: clock.now }));
    const start = clock.now();
    await hooks.invoke(search, { query: "a" }); // t0
    clock.advance(4_000);
    await hooks.invoke(search, { query: "b" }); // t0+4s
    clock.set(start + 9_999);
    expect((await hooks.invoke(search, { query: "c" })).reason).toContain("Retry after 1ms");
    clock.set(start + 10_000);
    expect((await hooks.invoke(search, { query: "d" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "e" })).reason).toContain("Retry after 4s");
    clock.set(start + 14_000);
    expect((await hooks.invoke(search, { query: "f" })).status).toBe("ok");
  });

  it("lets exactly max of 1,000 concurrent calls through, even behind an async hook", async () => {
    const { clock, search, runs } = setup();
    const hooks = new ToolHooks();
    hooks.before(
      async () => {
        await new Promise((r) => setTimeout(r, 0));
      },
      { priority: 10 },
    );
    hooks.use(rateLimit({ max: 37, per: "1h", now: clock.now }));
    const outs = await Promise.all(Array.from({ length: 1000 }, (_, i) => hooks.invoke(search, { query: `q${i}` })));
    expect(outs.filter((o) => o.status === "ok")).toHaveLength(37);
    expect(outs.filter((o) => o.status === "blocked")).toHaveLength(963);
    expect(runs()).toBe(37);
  });

  it("records the decision in ctx.state for inner hooks", async () => {
    const { clock, search } = setup();
    const hooks = new ToolHooks();
    const seen: (RateLimitDecision & { key: string })[] = [];
    hooks.use(rateLimit({ max: 5, per: 1000, now: clock.now }));
    hooks.before(
      (ctx) => {
        if (ctx.state.rateLimit) seen.push(ctx.state.rateLimit);
      },
      { priority: -1 },
    );
    await hooks.invoke(search, { query: "a" });
    await hooks.invoke(search, { query: "b" });
    expect(seen).toEqual([
      { allowed: true, remaining: 4, retryAfterMs: 0, key: "tool:web_search" },
      { allowed: true, remaining: 3, retryAfterMs: 0, key: "tool:web_search" },
    ]);
  });

  it("does not hand out extra calls when the clock steps back", async () => {
    const { clock, search } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m", now: clock.now }));
    await hooks.invoke(search, { query: "a" });
    await hooks.invoke(search, { query: "b" });
    clock.advance(-120_000);
    expect((await hooks.invoke(search, { query: "c" })).status).toBe("blocked");
  });
});

describe("rateLimit: token bucket", () => {
  it("allows a burst of max, then refills continuously", async () => {
    const { clock, search } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 5, per: "1s", algorithm: "token-bucket", now: clock.now }));
    const burst = await Promise.all(Array.from({ length: 6 }, () => hooks.invoke(search, { query: "x" })));
    expect(burst.map((o) => o.status)).toEqual(["ok", "ok", "ok", "ok", "ok", "blocked"]);
    expect(burst[5]?.reason).toContain("Retry after 200ms");
    clock.advance(199);
    expect((await hooks.invoke(search, { query: "x" })).status).toBe("blocked");
    clock.advance(1);
    expect((await hooks.invoke(search, { query: "x" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "x" })).status).toBe("blocked");
    clock.advance(60_000); // refills to capacity, not beyond
    const again = await Promise.all(Array.from({ length: 7 }, () => hooks.invoke(search, { query: "x" })));
    expect(again.filter((o) => o.status === "ok")).toHaveLength(5);
  });

  it("is exact for 1,000 concurrent calls", async () => {
    const { clock, search, runs } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 100, per: "1m", algorithm: "token-bucket", now: clock.now }));
    const outs = await Promise.all(Array.from({ length: 1000 }, () => hooks.invoke(search, { query: "x" })));
    expect(outs.filter((o) => o.status === "ok")).toHaveLength(100);
    expect(runs()).toBe(100);
  });
});

describe("rateLimit: keys", () => {
  const alice = new Agent({ role: "alice" });
  const bob = new Agent({ role: "bob" });

  it.each([
    ["tool", [true, true, false, false, true]],
    ["agent", [true, false, true, false, true]],
    ["global", [true, false, false, false, true]],
    ["tool+agent", [true, true, true, false, true]],
  ] as const)("key %s", async (key, expected) => {
    const { clock, search, read } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 1, per: "1m", key, now: clock.now }));
    const results = [
      await hooks.invoke(search, { query: "a" }, { agent: alice }),
      await hooks.invoke(read, {}, { agent: alice }),
      await hooks.invoke(search, { query: "b" }, { agent: bob }),
      await hooks.invoke(search, { query: "c" }, { agent: alice }),
    ];
    clock.advance(60_000);
    results.push(await hooks.invoke(search, { query: "d" }, { agent: alice }));
    expect(results.map((o) => o.status === "ok")).toEqual(expected);
  });

  it("takes a key function, and fails closed when it throws or returns a non-string", async () => {
    const { clock, search, runs } = setup();
    const hooks = new ToolHooks();
    hooks.use(
      rateLimit({
        max: 1,
        per: "1m",
        now: clock.now,
        key: (ctx) => {
          const q = (ctx.toolInput as { query?: unknown }).query;
          if (q === "boom") throw new Error("no key");
          return q === "bad" ? (42 as unknown as string) : `user:${String(q).split("/")[0]}`;
        },
      }),
    );
    expect((await hooks.invoke(search, { query: "u1/a" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "u2/a" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "u1/b" })).reason).toContain("Rate limit exceeded for user:u1");
    const boom = await hooks.invoke(search, { query: "boom" });
    expect(boom.status).toBe("blocked");
    expect(boom.reason).toBe("hook rate-limit failed: no key");
    const bad = await hooks.invoke(search, { query: "bad" });
    expect(bad.status).toBe("blocked");
    expect(bad.reason).toContain("`key` returned number");
    expect(runs()).toBe(2);
  });

  it("keeps limiters sharing a store apart with keyPrefix, and reset() forgets", async () => {
    const { clock, search } = setup();
    const store = memoryRateLimitStore();
    const hooks = new ToolHooks();
    const perMinute = rateLimit({ max: 2, per: "1m", store, keyPrefix: "m:", now: clock.now });
    const perHour = rateLimit({ max: 3, per: "1h", store, keyPrefix: "h:", now: clock.now });
    hooks.use(perMinute);
    hooks.use(perHour);
    const first = await Promise.all([1, 2, 3].map(() => hooks.invoke(search, { query: "x" })));
    expect(first.map((o) => o.status)).toEqual(["ok", "ok", "blocked"]);
    clock.advance(60_000);
    expect((await hooks.invoke(search, { query: "x" })).status).toBe("ok");
    const hourly = await hooks.invoke(search, { query: "x" });
    expect(hourly.reason).toContain("at most 3 calls per 1h");
    expect(store.size).toBe(2);
    clock.advance(60_000);
    perHour.reset("tool:web_search");
    expect((await hooks.invoke(search, { query: "x" })).status).toBe("ok");
    expect(store.size).toBe(2);
  });

  it("does not refund a call that a later hook blocked", async () => {
    const { clock, search, runs } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m", now: clock.now }));
    hooks.before((ctx) => (ctx.toolInput as { query: string }).query !== "forbidden", { priority: -1 });
    expect((await hooks.invoke(search, { query: "forbidden" })).status).toBe("blocked");
    expect((await hooks.invoke(search, { query: "fine" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "fine" })).reason).toContain("at most 2 calls per 1m");
    expect(runs()).toBe(1);
  });
});

describe("rateLimit: stores and failures", () => {
  function asyncStore(): RateLimitStore & { calls: number } {
    const inner = memoryRateLimitStore();
    const store = {
      calls: 0,
      // Simulates a remote store whose check-and-record is atomic on the server side.
      async hit(key: string, request: Parameters<RateLimitStore["hit"]>[1]) {
        store.calls++;
        await new Promise((r) => setTimeout(r, 0));
        return inner.hit(key, request);
      },
    };
    return store;
  }

  it("works with an async store under 1,000 concurrent calls", async () => {
    const { clock, search, runs } = setup();
    const store = asyncStore();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 10, per: "1m", store, now: clock.now }));
    const outs = await Promise.all(Array.from({ length: 1000 }, () => hooks.invoke(search, { query: "x" })));
    expect(outs.filter((o) => o.status === "ok")).toHaveLength(10);
    expect(runs()).toBe(10);
    expect(store.calls).toBe(1000);
  });

  it("fails closed when the store rejects or answers nonsense", async () => {
    const { search, runs } = setup();
    const hooks = new ToolHooks();
    const down = rateLimit({ max: 10, per: "1m", store: { hit: () => Promise.reject(new Error("redis down")) } });
    const off = hooks.use(down);
    const out = await hooks.invoke(search, { query: "x" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("hook rate-limit failed: redis down");
    off();
    hooks.use(rateLimit({ max: 10, per: "1m", store: { hit: () => ({ ok: true }) as unknown as RateLimitDecision } }));
    const nonsense = await hooks.invoke(search, { query: "x" });
    expect(nonsense.status).toBe("blocked");
    expect(nonsense.reason).toContain("must return { allowed, remaining, retryAfterMs }");
    expect(runs()).toBe(0);
  });

  it("uses a custom message and calls onLimited", async () => {
    const { clock, search } = setup();
    const limited: string[] = [];
    const hooks = new ToolHooks();
    hooks.use(
      rateLimit({
        max: 1,
        per: 5000,
        now: clock.now,
        message: (i) =>
          `slow down: ${i.toolName} again in ${Math.ceil(i.retryAfterMs / 1000)}s (${i.max}/${i.windowMs}ms)`,
        onLimited: (i) => limited.push(i.key),
      }),
    );
    await hooks.invoke(search, { query: "x" });
    clock.advance(1000);
    const out = await hooks.invoke(search, { query: "x" });
    expect(out.reason).toBe("slow down: web_search again in 4s (1/5000ms)");
    expect(limited).toEqual(["tool:web_search"]);
  });

  it("only limits the tools it is given", async () => {
    const { clock, search, read } = setup();
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 1, per: "1m", key: "global", tools: "web_*", now: clock.now }));
    await hooks.invoke(search, { query: "x" });
    expect((await hooks.invoke(read, {})).status).toBe("ok");
    expect((await hooks.invoke(read, {})).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "x" })).status).toBe("blocked");
  });
});
