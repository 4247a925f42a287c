import { Agent, defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { memoryRateLimitStore, type RateLimitKey, type RateLimitStore, rateLimit } from "./index.js";

// The limiter keeps the key of its last call (tool, role) and copies the in-memory store's decisions
// field by field: counting must stay per key whatever the order of the calls, and ctx.state the same.

const tools = ["alpha", "beta"].map((name) => defineTool({ name, execute: () => name }));
const agents = [new Agent({ role: "ann" }), new Agent({ role: "bob" }), undefined];

function keyOf(kind: Exclude<RateLimitKey, (ctx: never) => string>, tool: string, role: string | undefined): string {
  const who = role ?? "";
  if (kind === "tool") return `tool:${tool}`;
  if (kind === "agent") return `agent:${who}`;
  if (kind === "global") return "global";
  return `tool:${tool}|agent:${who}`;
}

describe("rateLimit hot path", () => {
  it("counts every key apart however calls interleave, with and without a prefix (property)", async () => {
    const kinds = fc.constantFrom("tool" as const, "agent" as const, "global" as const, "tool+agent" as const);
    const calls = fc.array(fc.record({ tool: fc.nat(1), agent: fc.nat(2) }), { maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(
        kinds,
        fc.constantFrom("", "p:"),
        fc.integer({ min: 1, max: 3 }),
        calls,
        async (kind, keyPrefix, max, seq) => {
          const store = memoryRateLimitStore();
          const hooks = new ToolHooks();
          hooks.use(rateLimit({ max, per: "1h", key: kind, keyPrefix, store, now: () => 0 }));
          const used = new Map<string, number>();
          for (const c of seq) {
            const tool = tools[c.tool] as (typeof tools)[number];
            const agent = agents[c.agent];
            const key = keyOf(kind, tool.name, agent?.role);
            const count = used.get(key) ?? 0;
            const out = await hooks.invoke(tool, {}, { agent });
            expect(out.status).toBe(count < max ? "ok" : "blocked");
            if (count < max) used.set(key, count + 1);
            else expect(out.reason).toContain(`for ${key}:`);
          }
          expect(store.size).toBe(used.size);
        },
      ),
    );
  });

  it("puts the same decision in ctx.state as before: the in-memory store's three fields, another store's all", async () => {
    const seen: unknown[] = [];
    const extra: RateLimitStore = {
      hit: () => ({ allowed: true, remaining: 7, retryAfterMs: 0, resetAt: 42 }) as never,
    };
    for (const store of [memoryRateLimitStore(), extra]) {
      const hooks = new ToolHooks();
      hooks.use(rateLimit({ max: 9, per: "1m", store, keyPrefix: "x:", now: () => 0 }));
      hooks.before((ctx) => void seen.push(ctx.state.rateLimit), { priority: -1 });
      await hooks.invoke(tools[0] as (typeof tools)[number], {});
    }
    expect(seen).toEqual([
      { allowed: true, remaining: 8, retryAfterMs: 0, key: "tool:alpha" },
      { allowed: true, remaining: 7, retryAfterMs: 0, resetAt: 42, key: "tool:alpha" },
    ]);
  });

  it("hands the store the prefixed key of each call", async () => {
    const keys: string[] = [];
    const store: RateLimitStore = {
      hit: (key) => {
        keys.push(key);
        return { allowed: true, remaining: 1, retryAfterMs: 0 };
      },
    };
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m", store, keyPrefix: "hourly:", key: "tool+agent" }));
    const [alpha, beta] = tools as [(typeof tools)[number], (typeof tools)[number]];
    await hooks.invoke(alpha, {}, { agent: agents[0] });
    await hooks.invoke(alpha, {}, { agent: agents[1] });
    await hooks.invoke(beta, {}, { agent: agents[1] });
    await hooks.invoke(beta, {});
    expect(keys).toEqual([
      "hourly:tool:alpha|agent:ann",
      "hourly:tool:alpha|agent:bob",
      "hourly:tool:beta|agent:bob",
      "hourly:tool:beta|agent:",
    ]);
  });
});
