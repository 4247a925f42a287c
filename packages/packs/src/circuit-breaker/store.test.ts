import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type CircuitStore, circuitBreaker, memoryCircuitStore } from "./index.js";

const failing = () => {
  let runs = 0;
  const tool = defineTool({
    name: "flaky",
    execute: () => {
      runs++;
      throw new Error("503");
    },
  });
  return { tool, runs: () => runs };
};

describe("circuit-breaker: store", () => {
  it("breakers sharing one store share their circuits", async () => {
    const store = memoryCircuitStore();
    const { tool, runs } = failing();
    const first = new ToolHooks();
    first.use(circuitBreaker({ failureThreshold: 2, store }));
    const second = new ToolHooks();
    const changes: string[] = [];
    const other = circuitBreaker({ failureThreshold: 2, store, onStateChange: (c) => changes.push(c.to) });
    second.use(other);
    await first.invoke(tool, {});
    await first.invoke(tool, {});
    const blocked = await second.invoke(tool, {});
    expect(blocked.status).toBe("blocked");
    expect(blocked.reason).toMatch(/^circuit open for flaky, retry in 30s$/);
    expect(runs()).toBe(2);
    expect(other.state("flaky")).toMatchObject({ state: "open", failures: 2 });
    other.reset();
    expect(changes).toEqual(["closed"]);
    expect((await second.invoke(tool, {})).status).toBe("error");
  });

  it("a store that throws or rejects blocks the call (fails closed), saying why", async () => {
    const boom = new Error("store down");
    const broken = (async: boolean): CircuitStore => ({
      admit: () => {
        if (async) return Promise.reject(boom);
        throw boom;
      },
      record: () => undefined,
      snapshot: () => ({ state: "closed", failures: 0, trials: 0 }),
      reset: () => [],
    });
    for (const async of [false, true]) {
      const hooks = new ToolHooks();
      const { tool, runs } = failing();
      hooks.use(circuitBreaker({ store: broken(async) }));
      const out = await hooks.invoke(tool, {});
      expect(out.status).toBe("blocked");
      expect(out.reason).toBe("circuit state for flaky unavailable, call blocked: store down");
      expect(runs()).toBe(0);
    }
  });

  it("an outcome the store cannot count is reported and leaves the call's outcome alone", async () => {
    const reported: string[] = [];
    const hooks = new ToolHooks({ onListenerError: (where) => reported.push(where) });
    const inner = memoryCircuitStore();
    const store: CircuitStore = { ...inner, record: () => Promise.reject(new Error("lost")) };
    hooks.use(circuitBreaker({ store }));
    const out = await hooks.invoke(defineTool({ name: "ok_tool", execute: () => "fine" }), {});
    expect(out).toMatchObject({ status: "ok", result: "fine" });
    expect(reported).toEqual(["circuitBreaker.store"]);
  });

  it("refuses a store without the four methods", () => {
    for (const store of [null, {}, { admit() {} }, "redis"]) {
      try {
        circuitBreaker({ store: store as never });
        expect.unreachable();
      } catch (e) {
        expect(toolwareCode(e)).toBe("TOOLWARE_INVALID_OPTION");
        expect(String(e)).toMatch(/`store` must implement admit, record, snapshot, reset/);
      }
    }
  });
});
