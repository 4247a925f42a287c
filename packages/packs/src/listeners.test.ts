// 10,000 concurrent calls through every pack, with and without a caller signal: no pack, no
// tool and not the engine leaves abort listeners behind, and Node never warns about a leak.
import { getEventListeners } from "node:events";
import { defineTool, type ToolCallOutcome, type ToolHooks } from "@toolware/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withPacks } from "./test-fixtures.js";

const CALLS = 10_000;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

let warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

// Tools that behave like real ones: they listen to their signal while they work (as fetch does),
// fail once and are retried, or are answered from the cache while a first call is in flight.
function tools() {
  const signals = new Set<AbortSignal>();
  const failedOnce = new Set<string>();
  const gate = { open: () => {} };
  const opened = new Promise<void>((resolve) => {
    gate.open = resolve;
  });
  const working = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      signals.add(signal);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      void opened.then(() => {
        signal.removeEventListener("abort", onAbort);
        resolve("done");
      });
    });
  const list = [
    defineTool({ name: "fetch_page", execute: (_i: { path: string; n: number }, { signal }) => working(signal) }),
    defineTool({
      name: "flaky_api",
      execute: async (_i: { path: string; n: number }, { signal, callId }) => {
        if (!failedOnce.has(callId)) {
          failedOnce.add(callId);
          throw new Error("transient");
        }
        return working(signal);
      },
    }),
    defineTool({ name: "cached_lookup", execute: (_i: { path: string; n: number }, { signal }) => working(signal) }),
  ];
  return { list, signals, open: gate.open };
}

function start(hooks: ToolHooks, list: ReturnType<typeof tools>["list"], signal: AbortSignal | undefined) {
  const calls: Promise<ToolCallOutcome>[] = [];
  for (let i = 0; i < CALLS; i++) {
    const tool = list[i % list.length] as (typeof list)[number];
    // The cache sees 50 distinct inputs: most calls wait on another one's flight.
    const n = tool.name === "cached_lookup" ? i % 50 : i;
    calls.push(hooks.invoke(tool, { path: "reports/a.txt", n }, signal === undefined ? {} : { signal }));
  }
  return calls;
}

describe("abort listeners under 10,000 concurrent calls through every pack", () => {
  it.each([
    ["without a caller signal", false],
    ["with one long-lived caller signal", true],
  ])(
    "leaves none behind and prints no warning, %s",
    async (_label, withSignal) => {
      const hooks = withPacks();
      const caller = new AbortController();
      const { list, signals, open } = tools();
      const calls = start(hooks, list, withSignal ? caller.signal : undefined);
      for (let i = 0; i < 20; i++) await tick();

      // While every call waits: the caller's signal carries one listener however many calls share it,
      // and each signal a tool received carries only that tool's own.
      expect(signals.size).toBeGreaterThan(CALLS / 3);
      expect(getEventListeners(caller.signal, "abort").length).toBe(withSignal ? 1 : 0);
      for (const signal of signals) expect(getEventListeners(signal, "abort").length).toBeLessThanOrEqual(2);

      open();
      const outcomes = await Promise.all(calls);
      expect(outcomes.filter((o) => o.status !== "ok").map((o) => o.result)).toEqual([]);
      await tick();

      expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
      for (const signal of signals) expect(getEventListeners(signal, "abort")).toHaveLength(0);
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    },
    60_000,
  );

  it("still cancels every call when the shared caller signal aborts, then keeps no listener", async () => {
    const hooks = withPacks();
    const caller = new AbortController();
    const { list } = tools();
    const calls = start(hooks, list, caller.signal);
    for (let i = 0; i < 20; i++) await tick();
    caller.abort(new Error("shutting down"));
    const outcomes = await Promise.all(calls);
    // The tools fail with the abort reason; the cache's followers stop waiting and are blocked.
    const ended = outcomes.filter(
      (o) =>
        (o.status === "error" && o.result.includes("shutting down")) ||
        (o.status === "blocked" && o.toolName === "cached_lookup" && o.result.includes("cancelled")),
    );
    expect(ended).toHaveLength(CALLS);
    await tick();
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    expect(warnings).toEqual([]);
  }, 60_000);
});
