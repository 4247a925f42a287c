// Adversarial probes of rate-limit's memoised last key (index.ts): interleaved keys keep their own counters, and a key
// function answering something that is no string blocks the call (a guard fails closed) without making invoke reject.
import { Agent, defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { type RateLimitKey, rateLimit } from "@toolware/packs/rate-limit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const tools = ["a", "b", "c"].map((name) => defineTool({ name, execute: async () => name }));
const roles = [undefined, new Agent({ role: "x" }), new Agent({ role: "y" })];

describe("rate-limit's last key", () => {
  it.each(["tool", "agent", "tool+agent", "global"] as const)(
    "key %s: interleaved calls count as a fresh limiter per key would (property)",
    async (key) => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { minLength: 1, maxLength: 20 }), async (calls) => {
          const hooks = new ToolHooks();
          hooks.use(rateLimit({ max: 2, per: "1h", key }));
          const seen = new Map<string, number>();
          for (const [t, r] of calls) {
            const tool = tools[t] as (typeof tools)[number];
            const agent = roles[r];
            const role = agent?.role ?? "";
            const id = { tool: tool.name, agent: role, "tool+agent": `${tool.name}|${role}`, global: "g" }[key];
            const n = (seen.get(id) ?? 0) + 1;
            seen.set(id, n);
            const outcome = await hooks.invoke(tool, {}, { agent });
            expect(outcome.status).toBe(n <= 2 ? "ok" : "blocked");
          }
        }),
        { numRuns: 100 },
      );
    },
  );

  it("a key function answering no string blocks with TOOLWARE_INVALID_RETURN, and invoke resolves", async () => {
    const answers: unknown[] = [
      undefined,
      5,
      null,
      new String("k"),
      { toString: () => "k" },
      Symbol("k"),
      Promise.resolve("k"),
    ];
    for (const answer of answers) {
      const hooks = new ToolHooks();
      hooks.use(rateLimit({ max: 1, per: "1h", key: (() => answer) as unknown as RateLimitKey }));
      const tool = tools[0] as (typeof tools)[number];
      const outcome = await hooks.invoke(tool, {});
      expect(outcome.status, String(typeof answer)).toBe("blocked");
      expect(toolwareCode(outcome.error)).toBe("TOOLWARE_INVALID_RETURN");
    }
  });

  it("a key function that throws, then answers, counts only the answered calls", async () => {
    let calls = 0;
    const hooks = new ToolHooks();
    hooks.use(
      rateLimit({
        max: 1,
        per: "1h",
        key: () => {
          calls++;
          if (calls % 2 === 1) throw new Error("flaky");
          return "k";
        },
      }),
    );
    const tool = tools[0] as (typeof tools)[number];
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await hooks.invoke(tool, {})).status);
    expect(statuses).toEqual(["blocked", "ok", "blocked", "blocked"]);
  });
});

describe("rate-limit keys never let two callers share a counter", () => {
  it("keeps an agent whose role reads like the no-agent marker apart from calls without an agent", async () => {
    for (const role of ["(none)", "none", "agent"]) {
      const hooks = new ToolHooks();
      hooks.use(rateLimit({ max: 1, per: "1h", key: "agent" }));
      const tool = defineTool({ name: "search", execute: () => "ok" });
      expect((await hooks.invoke(tool, {})).status).toBe("ok");
      expect((await hooks.invoke(tool, {}, { agent: new Agent({ role }) })).status).toBe("ok");
      expect((await hooks.invoke(tool, {})).status).toBe("blocked");
    }
  });

  it("keeps tool names holding the separator apart under tool+agent", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 1, per: "1h", key: "tool+agent" }));
    const a = defineTool({ name: "a|agent:b", execute: () => "ok" });
    const b = defineTool({ name: "a", execute: () => "ok" });
    const c = defineTool({ name: "a\\", execute: () => "ok" });
    expect((await hooks.invoke(a, {}, { agent: new Agent({ role: "c" }) })).status).toBe("ok");
    expect((await hooks.invoke(b, {}, { agent: new Agent({ role: "b|agent:c" }) })).status).toBe("ok");
    expect((await hooks.invoke(c, {}, { agent: new Agent({ role: "|agent:b|agent:c" }) })).status).toBe("ok");
    expect((await hooks.invoke(a, {}, { agent: new Agent({ role: "c" }) })).status).toBe("blocked");
  });
});
