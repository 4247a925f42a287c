// docs/packs/loop-guard.md: with `action: "block"` the guard fails closed. A clock that answers NaN, ±Infinity or a
// non-number must not leave every call outside the window (which never blocked a loop).
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { type LoopGuardStore, loopGuard, memoryLoopGuardStore } from "@toolware/packs/loop-guard";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const badReading = fc.oneof(
  fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, undefined, null, "5", 5n),
  fc.object(),
);

describe("loop-guard: a clock that answers no finite time", () => {
  it("action block: every call is blocked, none reaches the tool", async () => {
    await fc.assert(
      fc.asyncProperty(badReading, async (reading) => {
        let runs = 0;
        const tool = defineTool({ name: "web_search", execute: () => ++runs });
        const hooks = new ToolHooks();
        const now = () => reading as number;
        hooks.use(loopGuard({ maxRepeats: false, maxInWindow: 2, action: "block", onWarn: () => {}, now }));
        for (let i = 0; i < 4; i++) {
          const out = await hooks.invoke(tool, {});
          expect(out.status).toBe("blocked");
          expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
        }
        expect(runs).toBe(0);
      }),
      { numRuns: 30 },
    );
  });

  it("with a good clock the window still counts", async () => {
    const tool = defineTool({ name: "web_search", execute: () => "results" });
    const hooks = new ToolHooks();
    let t = 0;
    hooks.use(
      loopGuard({
        maxRepeats: false,
        maxInWindow: 2,
        windowMs: 1_000,
        action: "block",
        onWarn: () => {},
        now: () => t,
      }),
    );
    const statuses: string[] = [];
    for (let i = 0; i < 3; i++, t += 10) statuses.push((await hooks.invoke(tool, {})).status);
    expect(statuses).toContain("blocked");
  });
});

describe("loop-guard: what a custom store's observe() may answer", () => {
  const odd = fc.oneof(
    fc.constantFrom<unknown>(null, undefined, 5, "5", {}, { streak: Number.NaN, inWindow: 1 }),
    fc.record({
      streak: fc.oneof(fc.string(), fc.double(), fc.constant(undefined), fc.integer({ max: -1 })),
      inWindow: fc.nat(),
    }),
  );
  it("anything but two whole counts blocks a blocking guard's call", async () => {
    await fc.assert(
      fc.asyncProperty(odd, fc.boolean(), async (answer, sync) => {
        fc.pre(
          !(
            typeof answer === "object" &&
            answer !== null &&
            Number.isSafeInteger((answer as { streak?: unknown }).streak)
          ),
        );
        let runs = 0;
        const tool = defineTool({ name: "web_search", execute: () => ++runs });
        const inner = memoryLoopGuardStore();
        const store: LoopGuardStore = {
          observe: () => (sync ? answer : Promise.resolve(answer)) as never,
          history: (scope) => inner.history(scope),
          reset: (scope) => inner.reset(scope),
        };
        const hooks = new ToolHooks();
        hooks.use(loopGuard({ maxRepeats: 2, action: "block", onWarn: () => {}, store }));
        const out = await hooks.invoke(tool, {});
        expect(out.status).toBe("blocked");
        expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
        expect(runs).toBe(0);
      }),
      { numRuns: 60 },
    );
  });
});
