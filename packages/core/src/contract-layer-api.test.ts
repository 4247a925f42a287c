// Contract (docs/hook-management.md, docs/registration.md "Events"): the layer API refuses what
// would silently do nothing. A misspelt event listens to nothing, a listener that is not a
// function would fail only when the event fires; both are coded TypeErrors where they are written.
// Listeners, whatever they throw or return, never change a call.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Agent, Crew, defineTool, type HookRegistry, ToolHooks } from "./index.js";
import { codeOf } from "./test-fixtures.js";

const tool = defineTool({ name: "read_file", execute: () => "contents" });

describe("on() and once() take the events the layer emits", () => {
  const callEvents = ["call:start", "call:blocked", "call:error", "call:end", "hook:error", "hook:ignored-return"];

  it("a ToolHooks takes every documented event; a typo is refused with a hint", () => {
    const hooks = new ToolHooks();
    for (const event of [...callEvents, "hook:added", "hook:removed"]) {
      expect(typeof hooks.on(event as "call:end", () => undefined)).toBe("function");
      expect(typeof hooks.once(event as "call:end", () => undefined)).toBe("function");
    }
    const on = hooks.on.bind(hooks) as (event: unknown, listener: unknown) => unknown;
    expect(codeOf(() => on("call:ned", () => undefined))).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(() => on("call:ned", () => undefined)).toThrow(/did you mean "call:end"/);
    for (const event of ["", "CALL:END", "call:done", "error", 1, null, Symbol("e"), {}]) {
      expect(codeOf(() => on(event, () => undefined))).toBe("TOOLWARE_INVALID_ARGUMENT");
    }
  });

  it("a crew or agent layer takes only hook:added and hook:removed", () => {
    const layers: HookRegistry[] = [new Crew({ name: "c" }), new Agent({ role: "r" })];
    for (const layer of layers) {
      layer.on("hook:added", () => undefined);
      layer.once("hook:removed", () => undefined);
      for (const event of callEvents) {
        const on = layer.on.bind(layer) as (event: unknown, listener: unknown) => unknown;
        expect(codeOf(() => on(event, () => undefined))).toBe("TOOLWARE_INVALID_ARGUMENT");
      }
    }
  });

  it("a listener that is not a function is refused, and nothing listens", async () => {
    const hooks = new ToolHooks();
    const on = hooks.on.bind(hooks) as (event: unknown, listener: unknown) => unknown;
    for (const listener of [undefined, null, 42, "fn", {}, Symbol("l")]) {
      expect(codeOf(() => on("call:end", listener))).toBe("TOOLWARE_INVALID_ARGUMENT");
    }
    expect((await hooks.invoke(tool, {})).status).toBe("ok");
  });
});

describe("listeners never change a call", () => {
  it("whatever a listener throws or returns, the call's outcome is the one without it", async () => {
    const hostile = () =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error("trap");
          },
          getPrototypeOf: () => {
            throw new Error("trap");
          },
        },
      );
    const values = fc.oneof(fc.anything(), fc.bigInt(), fc.constant(Symbol("x")), fc.constant(0).map(hostile));
    await fc.assert(
      fc.asyncProperty(values, fc.constantFrom("throw", "return", "reject"), async (value, how) => {
        const reported: string[] = [];
        const hooks = new ToolHooks({ onListenerError: (event) => void reported.push(event) });
        hooks.before((ctx) => ctx.toolName !== "rm");
        const listener = () => {
          if (how === "throw") throw value;
          if (how === "reject") return Promise.reject(value);
          return value;
        };
        for (const event of ["call:start", "call:end", "call:blocked"] as const) hooks.on(event, listener);
        const ok = await hooks.invoke(tool, {});
        const blocked = await hooks.invoke(defineTool({ name: "rm", execute: () => "gone" }), {});
        expect([ok.status, ok.result, blocked.status]).toEqual(["ok", "contents", "blocked"]);
        if (how === "throw")
          expect(reported).toEqual(["call:start", "call:end", "call:start", "call:blocked", "call:end"]);
      }),
      { numRuns: 80 },
    );
  });
});
