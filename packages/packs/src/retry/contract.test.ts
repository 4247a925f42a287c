// docs/packs/retry.md: `random` is "() => number in [0, 1)", and a pause never exceeds the computed one. A reading
// outside [0, 1] made pauses negative, NaN or far past maxDelayMs (a timer that long fires at once); the call now
// fails with that bug's error, as it does for a throwing retryOn.
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { retry } from "@toolware/packs/retry";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const badReading = fc.oneof(
  fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, -1, 1.5, 1e12, undefined, null, "0.5"),
  fc.double({ min: 1, minExcluded: true, noNaN: true }),
  // -0 is no reading below 0 (it is in [0, 1]).
  fc.double({ max: 0, maxExcluded: true, noNaN: true }).filter((d) => d < 0),
);

describe("retry: what `random` may return", () => {
  it("a reading outside [0, 1] fails the call with TOOLWARE_INVALID_RETURN before any pause", async () => {
    await fc.assert(
      fc.asyncProperty(badReading, async (reading) => {
        let runs = 0;
        const flaky = defineTool({
          name: "flaky_api",
          execute: () => {
            runs++;
            throw new Error("down");
          },
        });
        const pauses: number[] = [];
        const hooks = new ToolHooks();
        hooks.use(
          retry({
            retries: 2,
            random: () => reading as number,
            sleep: async (ms) => {
              pauses.push(ms);
            },
          }),
        );
        const out = await hooks.invoke(flaky, {});
        expect(out.status).toBe("error");
        expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
        expect(pauses).toEqual([]);
        expect(runs).toBe(1);
      }),
      { numRuns: 40 },
    );
  });

  it("readings in [0, 1] keep every pause between 0 and maxDelayMs", async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ min: 0, max: 1, noNaN: true }), async (reading) => {
        const flaky = defineTool({
          name: "flaky_api",
          execute: () => {
            throw new Error("down");
          },
        });
        const pauses: number[] = [];
        const hooks = new ToolHooks();
        hooks.use(
          retry({
            retries: 3,
            minDelayMs: 100,
            maxDelayMs: 300,
            random: () => reading,
            sleep: async (ms) => void pauses.push(ms),
          }),
        );
        await hooks.invoke(flaky, {});
        expect(pauses).toHaveLength(3);
        for (const ms of pauses) expect(ms >= 0 && ms <= 300).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
