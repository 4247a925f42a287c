import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { cache } from "@toolware/packs/cache";
import { loopGuard } from "@toolware/packs/loop-guard";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration, rateLimit } from "./index.js";

// Every duration the messages may show, from a millisecond to ten years, whole and fractional.
const durations = fc.oneof(
  fc.integer({ min: 1, max: 10 * 365 * 86_400_000 }),
  fc.double({ min: 0.001, max: 10 * 365 * 86_400_000, noNaN: true }),
);

describe("formatDuration: one rounding rule", () => {
  it("shows the boundaries in the larger unit, rounded up", () => {
    expect(formatDuration(999)).toBe("999ms");
    expect(formatDuration(999.2)).toBe("1s");
    expect(formatDuration(1_000)).toBe("1s");
    expect(formatDuration(1_001)).toBe("1.1s");
    expect(formatDuration(59_900)).toBe("59.9s");
    expect(formatDuration(59_901)).toBe("1m");
    expect(formatDuration(59_999)).toBe("1m");
    expect(formatDuration(60_000)).toBe("1m");
    expect(formatDuration(60_001)).toBe("1.1m");
    expect(formatDuration(3_599_999)).toBe("1h");
    expect(formatDuration(3_600_000)).toBe("1h");
    expect(formatDuration(3_600_001)).toBe("1.1h");
  });

  it("never promises less waiting than asked, and reads back as a valid duration", () => {
    fc.assert(
      fc.property(durations, (ms) => {
        const text = formatDuration(ms);
        expect(text).toMatch(/^\d+(\.\d)?(ms|s|m|h)$/);
        expect(parseDuration(text as never)).toBeGreaterThanOrEqual(ms);
      }),
      { numRuns: 2000 },
    );
  });

  it("is monotonic: a longer wait never reads shorter", () => {
    fc.assert(
      fc.property(durations, durations, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(parseDuration(formatDuration(lo) as never)).toBeLessThanOrEqual(
          parseDuration(formatDuration(hi) as never),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("never shows a value that belongs to the next unit (1000ms, 60s, 60m)", () => {
    fc.assert(
      fc.property(durations, (ms) => {
        const text = formatDuration(ms);
        const value = Number.parseFloat(text);
        if (text.endsWith("ms")) expect(value).toBeLessThan(1000);
        else if (text.endsWith("s") || text.endsWith("m")) expect(value).toBeLessThan(60);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("rateLimit: its message", () => {
  const search = defineTool({ name: "web_search", execute: () => "results" });

  it("says 'call' for one, 'calls' for more", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 1, per: "1m", now: () => 0 }));
    await hooks.invoke(search, {});
    expect((await hooks.invoke(search, {})).reason).toBe(
      "Rate limit exceeded for tool:web_search: at most 1 call per 1m. Retry after 1m.",
    );
  });

  it("reads the same at exactly 60,000 ms left and one millisecond less", async () => {
    let t = 0;
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "2m", now: () => t }));
    await hooks.invoke(search, {});
    await hooks.invoke(search, {});
    const retry = async (at: number) => {
      t = at;
      return /Retry after (\S+)\./.exec((await hooks.invoke(search, {})).reason ?? "")?.[1];
    };
    expect(await retry(60_000)).toBe("1m");
    expect(await retry(60_001)).toBe("1m");
    expect(await retry(60_100)).toBe("59.9s");
  });
});

describe("durations in options", () => {
  it("refuses spaced, signed or unit-less strings, with a hint and a code", () => {
    const error = (() => {
      try {
        rateLimit({ max: 1, per: "1 m" as never });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TypeError);
    expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
    expect((error as Error).message).toBe(
      'toolware/rate-limit: `per` must be a number of milliseconds or a string like "500ms", "10s", "1m", "1h", got "1 m" (write "1m")',
    );
    expect(() => cache({ tools: "*", ttl: " 5m" as never })).toThrow('(write "5m")');
    expect(() => loopGuard({ maxInWindow: 3, windowMs: "10 S" as never })).toThrow('(write "10s")');
  });

  it("accepts exactly <number><unit>, and refuses anything with other characters around it", () => {
    const unit = fc.constantFrom("ms", "s", "m", "h", "d");
    const amount = fc.oneof(
      fc.integer({ min: 1, max: 10_000 }).map(String),
      fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 9 })).map(([a, b]) => `${a}.${b}`),
    );
    fc.assert(
      fc.property(amount, unit, (n, u) => {
        expect(parseDuration(`${n}${u}` as never)).toBeGreaterThan(0);
      }),
    );
    const noise = fc.constantFrom(" ", "\t", "\n", "+", "-", "_", "\u00a0", "\u200b");
    fc.assert(
      fc.property(amount, unit, noise, fc.integer({ min: 0, max: 2 }), (n, u, x, where) => {
        const text = where === 0 ? `${x}${n}${u}` : where === 1 ? `${n}${x}${u}` : `${n}${u}${x}`;
        let thrown: unknown;
        try {
          parseDuration(text as never, "per");
        } catch (e) {
          thrown = e;
        }
        expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_OPTION");
      }),
    );
  });

  it("refuses zero, negative, non-finite and non-number values with a code", () => {
    for (const per of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "", "0s", null, {}, [], 1n, Symbol("x")]) {
      let thrown: unknown;
      try {
        rateLimit({ max: 1, per: per as never });
      } catch (e) {
        thrown = e;
      }
      expect(toolwareCode(thrown), String(typeof per)).toBe("TOOLWARE_INVALID_OPTION");
    }
  });
});
