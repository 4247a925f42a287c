import { ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGateway } from "./index.js";
import { RESTART_DEFAULTS, restartDelay, restartPolicy } from "./restart-policy.js";

const hooks = new ToolHooks();
const up = { name: "x", command: "node" };

describe("restart options", () => {
  it("are checked strictly, at the gateway and per stdio upstream", () => {
    expect(() => createGateway({ upstreams: [up], hooks, restart: { maxRestart: 3 } } as never)).toThrow(
      /did you mean "maxRestarts"/,
    );
    expect(() => createGateway({ upstreams: [{ ...up, restart: { jiter: 0 } }], hooks } as never)).toThrow(
      /upstreams\[0\]\.restart: unknown option `jiter` \(did you mean "jitter"\?\)/,
    );
    expect(() =>
      createGateway({ upstreams: [{ name: "h", url: "http://127.0.0.1:1/mcp", restart: {} }], hooks } as never),
    ).toThrow(/stdio upstreams/);
    for (const bad of [
      { maxRestarts: -1 },
      { maxRestarts: 1.5 },
      { windowMs: 0 },
      { initialDelayMs: "1" },
      { maxDelayMs: Number.POSITIVE_INFINITY },
      { jitter: 2 },
      { jitter: Number.NaN },
      { initialDelayMs: 100, maxDelayMs: 10 },
    ]) {
      expect(() => createGateway({ upstreams: [up], hooks, restart: bad } as never)).toThrow(/restart\.\w+ must be/);
    }
    expect(() => createGateway({ upstreams: [up], hooks, restart: null } as never)).toThrow(/must be an object/);
    expect(() => createGateway({ upstreams: [up], hooks, restart: { maxRestarts: 0 } })).not.toThrow();
  });

  it("merge key by key: the upstream's over the gateway's over the documented defaults", () => {
    expect(RESTART_DEFAULTS).toEqual({
      maxRestarts: 5,
      windowMs: 60_000,
      initialDelayMs: 250,
      maxDelayMs: 30_000,
      jitter: 0.2,
    });
    expect(restartPolicy({ maxRestarts: 2, windowMs: 10 }, { windowMs: 20 })).toEqual({
      ...RESTART_DEFAULTS,
      maxRestarts: 2,
      windowMs: 20,
    });
  });

  it("back off exponentially, capped, with at most the jitter taken off", () => {
    const policy = { ...RESTART_DEFAULTS, jitter: 0 };
    expect([0, 1, 2, 3, 20].map((n) => restartDelay(policy, n))).toEqual([250, 500, 1000, 2000, 30_000]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        (recent, jitter, random) => {
          const p = { ...RESTART_DEFAULTS, jitter };
          const full = Math.min(p.maxDelayMs, p.initialDelayMs * 2 ** Math.min(recent, 40));
          const delay = restartDelay(p, recent, () => random);
          return delay <= full && delay >= Math.floor(full * (1 - jitter)) && Number.isFinite(delay);
        },
      ),
    );
  });
});
