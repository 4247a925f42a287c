// docs/packs/rate-limit.md: "It is a guard: it fails closed". A clock is an option like any other: one that answers
// NaN, ±Infinity or a non-number must not put every call outside the window.
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { type RateLimitStore, rateLimit } from "@toolware/packs/rate-limit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const search = defineTool({ name: "web_search", execute: () => "results" });
const badReading = fc.oneof(
  fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined, null, "5", 5n),
  fc.object(),
);

describe("rate-limit: a clock that answers no finite time", () => {
  for (const algorithm of ["sliding-window", "token-bucket"] as const) {
    it(`${algorithm}: every call is blocked, none reaches the tool`, async () => {
      await fc.assert(
        fc.asyncProperty(badReading, async (reading) => {
          let runs = 0;
          const tool = defineTool({ name: "web_search", execute: () => ++runs });
          const hooks = new ToolHooks();
          hooks.use(rateLimit({ max: 1, per: "1m", algorithm, now: () => reading as number }));
          for (let i = 0; i < 3; i++) {
            const out = await hooks.invoke(tool, {});
            expect(out.status).toBe("blocked");
            expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
            expect(out.reason).toMatch(/`now` returned/);
          }
          expect(runs).toBe(0);
        }),
        { numRuns: 30 },
      );
    });
  }

  it("a clock that turns bad later blocks from then on; a good one counts as before", async () => {
    let reading = 1_000;
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m", now: () => reading }));
    expect((await hooks.invoke(search, {})).status).toBe("ok");
    reading = Number.POSITIVE_INFINITY;
    expect((await hooks.invoke(search, {})).status).toBe("blocked");
    reading = 2_000;
    expect((await hooks.invoke(search, {})).status).toBe("ok");
    expect((await hooks.invoke(search, {})).status).toBe("blocked");
  });
});

describe("rate-limit: a custom store's decision is read once", () => {
  it("an `allowed` getter that answers false to the check and true afterwards still blocks", async () => {
    let runs = 0;
    const tool = defineTool({ name: "web_search", execute: () => ++runs });
    const store: RateLimitStore = {
      hit: () => {
        let reads = 0;
        return {
          get allowed() {
            return reads++ > 0;
          },
          remaining: 0,
          retryAfterMs: 1_000,
        };
      },
    };
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 1, per: "1m", store }));
    const out = await hooks.invoke(tool, {});
    expect(out.status).toBe("blocked");
    expect(runs).toBe(0);
  });
});
