// docs/packs/circuit-breaker.md: "Stops calling a tool that keeps failing". A clock that answers NaN, ±Infinity or a
// non-number kept the circuit closed for ever (every failing call reached the tool); it now blocks.
import { defineTool, ToolHooks } from "@toolware/core";
import { type CircuitStore, circuitBreaker, memoryCircuitStore } from "@toolware/packs/circuit-breaker";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const badReading = fc.oneof(
  fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined, null, "5", 5n),
  fc.object(),
);

describe("circuit-breaker: a clock that answers no finite time", () => {
  it("no call reaches a failing tool more than the threshold allows", async () => {
    await fc.assert(
      fc.asyncProperty(badReading, async (reading) => {
        let runs = 0;
        const tool = defineTool({
          name: "flaky_api",
          execute: () => {
            runs++;
            throw new Error("down");
          },
        });
        const hooks = new ToolHooks();
        hooks.use(circuitBreaker({ failureThreshold: 1, cooldownMs: 60_000, now: () => reading as number }));
        for (let i = 0; i < 4; i++) {
          const out = await hooks.invoke(tool, {});
          expect(out.status).not.toBe("ok");
        }
        expect(runs).toBeLessThanOrEqual(1);
      }),
      { numRuns: 30 },
    );
  });

  it("the failure names the clock", async () => {
    const tool = defineTool({ name: "flaky_api", execute: () => "fine" });
    const hooks = new ToolHooks();
    hooks.use(circuitBreaker({ now: () => Number.NaN }));
    const out = await hooks.invoke(tool, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/call blocked: .*`now` returned NaN, not a finite number/);
  });
});

describe("circuit-breaker: what a custom store's admit() may answer", () => {
  const odd = fc.oneof(
    fc.constantFrom<unknown>(null, undefined, "closed", true, 1, {}, { allowed: "true" }, { allowed: 1 }),
    fc.record({ allowed: fc.oneof(fc.string(), fc.integer(), fc.constant(null)) }),
  );
  for (const sync of [true, false]) {
    it(`anything but { allowed: true | false } blocks the call (${sync ? "plain value" : "promise"})`, async () => {
      await fc.assert(
        fc.asyncProperty(odd, async (answer) => {
          let runs = 0;
          const tool = defineTool({ name: "flaky_api", execute: () => ++runs });
          const inner = memoryCircuitStore();
          const store: CircuitStore = {
            admit: () => (sync ? answer : Promise.resolve(answer)) as never,
            record: (...args) => inner.record(...args),
            snapshot: (...args) => inner.snapshot(...args),
            reset: (key) => inner.reset(key),
          };
          const hooks = new ToolHooks();
          hooks.use(circuitBreaker({ store }));
          const out = await hooks.invoke(tool, {});
          expect(out.status).toBe("blocked");
          expect(out.reason).toMatch(/unavailable, call blocked: the store's admit\(\) must return/);
          expect(runs).toBe(0);
        }),
        { numRuns: 40 },
      );
    });
  }
});
