import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDuration, memoryRateLimitStore, parseDuration, rateLimit } from "./index.js";

describe("memoryRateLimitStore and durations", () => {
  it("matches a naive sliding-log model on random call times (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 80 }),
        (max, windowMs, gaps) => {
          const store = memoryRateLimitStore();
          const log: number[] = [];
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            const live = log.filter((t) => t + windowMs > now);
            const expected = live.length < max;
            if (expected) log.push(now);
            const d = store.hit("k", { algorithm: "sliding-window", max, windowMs, now });
            expect(d.allowed).toBe(expected);
            if (expected) expect(d.remaining).toBe(max - live.length - 1);
            else expect(d.retryAfterMs).toBe(Math.min(...live) + windowMs - now);
          }
        },
      ),
    );
  });
  it("stays exact when the limit changes between calls on one key (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 5 })), { maxLength: 100 }),
        (calls) => {
          const store = memoryRateLimitStore();
          const log: number[] = [];
          let now = 0;
          for (const [gap, max] of calls) {
            now += gap;
            const live = log.filter((t) => t + 100 > now);
            const expected = live.length < max;
            if (expected) log.push(now);
            expect(store.hit("k", { algorithm: "sliding-window", max, windowMs: 100, now }).allowed).toBe(expected);
          }
        },
      ),
    );
  });

  it("sweeps idle keys so unbounded keys do not leak", () => {
    const store = memoryRateLimitStore({ sweepEvery: 100 });
    for (let i = 0; i < 10_000; i++) {
      store.hit(`call-${i}`, { algorithm: "sliding-window", max: 1, windowMs: 10, now: i });
      store.hit(`bucket-${i}`, { algorithm: "token-bucket", max: 1, windowMs: 10, now: i });
    }
    expect(store.size).toBeLessThan(500);
    expect(store.sweep(1e9)).toBeGreaterThan(0);
    expect(store.size).toBe(0);
  });

  it("adapts when the same key is used with another max", () => {
    const store = memoryRateLimitStore();
    const req = (max: number, now: number) => store.hit("k", { algorithm: "sliding-window", max, windowMs: 100, now });
    expect([req(3, 0), req(3, 1), req(3, 2)].every((d) => d.allowed)).toBe(true);
    expect(req(2, 3).allowed).toBe(false);
    expect(req(4, 4).allowed).toBe(true);
    expect(req(4, 5).allowed).toBe(false);
    expect(req(4, 100).allowed).toBe(true); // t=0 left the window
  });
  it("parses and formats durations", () => {
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("10s")).toBe(10_000);
    expect(parseDuration("1.5m")).toBe(90_000);
    expect(parseDuration("1h")).toBe(3_600_000);
    expect(parseDuration("2d")).toBe(172_800_000);
    expect(parseDuration(42)).toBe(42);
    expect(() => parseDuration("10" as never)).toThrow(TypeError);
    expect(() => parseDuration("-1s" as never)).toThrow(TypeError);
    expect(() => parseDuration("1w" as never)).toThrow(TypeError);
    expect(() => parseDuration(Number.NaN)).toThrow(TypeError);
    expect(formatDuration(850)).toBe("850ms");
    expect(formatDuration(29_001)).toBe("29.1s");
    expect(formatDuration(90_000)).toBe("1.5m");
    expect(formatDuration(7_200_000)).toBe("2h");
  });
});

describe("rateLimit: options", () => {
  it.each([
    [{ max: 0, per: "1m" }, "`max` must be a positive integer"],
    [{ max: 1.5, per: "1m" }, "`max` must be a positive integer"],
    [{ max: 1, per: "1 minute" }, "`per` must be a number of milliseconds or a string"],
    [{ max: 1, per: "0s" }, "must be a positive, finite duration"],
    [{ max: 1, per: -5 }, "must be a positive, finite duration"],
    [{ max: 1, per: Number.POSITIVE_INFINITY }, "must be a positive, finite duration"],
    [{ max: 1, per: "1m", key: "user" }, "`key` must be"],
    [{ max: 1, per: "1m", algorithm: "leaky" }, "`algorithm` must be"],
    [{ max: 1, per: "1m", store: {} }, "`store` must implement"],
    [{ max: 1, per: "1m", limit: 3 }, "unknown option `limit`"],
  ])("rejects %j", (options, message) => {
    expect(() => rateLimit(options as never)).toThrow(TypeError);
    expect(() => rateLimit(options as never)).toThrow(`toolware/rate-limit: `);
    expect(() => rateLimit(options as never)).toThrow(message);
  });
});
