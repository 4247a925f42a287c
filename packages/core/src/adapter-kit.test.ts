// The adapter helpers: onOutcome listeners that fail are reported, never break a call; bind() fails closed.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Agent, bindCall, Crew, defineTool, notifyOutcome, Task, ToolHooks, toolwareCode } from "./index.js";

const tool = defineTool({ name: "t", execute: () => "ran" });

describe("notifyOutcome", () => {
  it("hands the outcome and the framework's context to the listener", async () => {
    const hooks = new ToolHooks();
    const outcome = await hooks.invoke(tool, {}, { callId: "c1" });
    const listener = vi.fn();
    const context = { toolCallId: "c1" };
    notifyOutcome(hooks, "toy.onOutcome", listener, outcome, context);
    expect(listener).toHaveBeenCalledWith(outcome, context);
    expect(() => notifyOutcome(hooks, "toy.onOutcome", undefined, outcome, context)).not.toThrow();
  });

  it("reports a throwing or rejecting listener through onListenerError, and never throws", async () => {
    const reported: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push([where, error]) });
    const outcome = await hooks.invoke(tool, {});
    const boom = new Error("listener bug");
    notifyOutcome(
      hooks,
      "toy.onOutcome",
      () => {
        throw boom;
      },
      outcome,
      undefined,
    );
    notifyOutcome(hooks, "toy.onOutcome", (() => Promise.reject("async bug")) as () => void, outcome, undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reported).toEqual([
      ["toy.onOutcome", boom],
      ["toy.onOutcome", "async bug"],
    ]);
  });

  it("survives a reporter that throws too", async () => {
    const hooks = new ToolHooks({
      onListenerError: () => {
        throw new Error("reporter bug");
      },
    });
    const outcome = await hooks.invoke(tool, {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(() =>
        notifyOutcome(
          hooks,
          "toy.onOutcome",
          () => {
            throw new Error("x");
          },
          outcome,
          undefined,
        ),
      ).not.toThrow();
    } finally {
      error.mockRestore();
    }
  });
});

describe("bindCall", () => {
  const agent = new Agent({ role: "r" });
  const crew = new Crew({ agents: [agent] });
  const task = new Task({ description: "d" });

  it("returns the bindings bind() picks from the call, or none", () => {
    const bind = (call: { user: string }) => (call.user === "a" ? { agent, crew, task } : undefined);
    expect(bindCall(bind, { user: "a" }, "toy")).toEqual({ agent, crew, task });
    expect(bindCall(bind, { user: "b" }, "toy")).toEqual({});
    expect(bindCall(undefined, { user: "a" }, "toy")).toEqual({});
  });

  it("reads only the bindings' own keys: an agent, task or crew on a polluted Object.prototype binds nothing", () => {
    const proto = Object.prototype as Record<string, unknown>;
    const intruder = new Agent({ role: "intruder" });
    try {
      proto.agent = intruder;
      proto.crew = new Crew({ agents: [intruder] });
      proto.task = new Task({ description: "exfiltrate" });
      const bound = bindCall(() => ({}), {}, "toy");
      expect([bound.agent, bound.task, bound.crew]).toEqual([undefined, undefined, undefined]);
      const own = bindCall(() => ({ agent }), {}, "toy");
      expect([own.agent, own.task, own.crew]).toEqual([agent, undefined, undefined]);
    } finally {
      delete proto.agent;
      delete proto.crew;
      delete proto.task;
    }
  });

  it("fails closed with a coded error when bind() throws or returns what is not bindings", () => {
    const cases: [() => unknown, string, RegExp][] = [
      [
        () => {
          throw new Error("lookup failed");
        },
        "TOOLWARE_BIND_FAILED",
        /toy: bind\(\) threw, so the call was not run/,
      ],
      [() => Promise.resolve({ agent }), "TOOLWARE_BIND_FAILED", /not a promise/],
      [() => null, "TOOLWARE_INVALID_BINDINGS", /returned null/],
      [() => "researcher", "TOOLWARE_INVALID_BINDINGS", /returned string/],
      [() => [agent], "TOOLWARE_INVALID_BINDINGS", /returned an array/],
      [() => ({ agent: "researcher" }), "TOOLWARE_INVALID_BINDINGS", /an agent that is not an Agent/],
      [() => ({ task: {} }), "TOOLWARE_INVALID_BINDINGS", /a task that is not a Task/],
      [() => ({ crew: agent }), "TOOLWARE_INVALID_BINDINGS", /a crew that is not a Crew/],
      [() => ({ agnet: agent }), "TOOLWARE_INVALID_BINDINGS", /unknown key `agnet`/],
      [() => ({ signal: AbortSignal.abort() }), "TOOLWARE_INVALID_BINDINGS", /unknown key `signal`/],
      [
        () =>
          new Proxy(
            {},
            {
              ownKeys() {
                throw new Error("trap");
              },
            },
          ),
        "TOOLWARE_INVALID_BINDINGS",
        /cannot be read/,
      ],
    ];
    for (const [bind, code, message] of cases) {
      let error: unknown;
      try {
        bindCall(bind as never, {}, "toy");
      } catch (e) {
        error = e;
      }
      expect(toolwareCode(error)).toBe(code);
      expect((error as Error).message).toMatch(message);
    }
  });

  it("property: whatever bind() returns, it either yields checked bindings or throws a coded error", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          const bound = bindCall(() => value as never, {}, "toy");
          expect(bound).toEqual({});
        } catch (error) {
          expect(["TOOLWARE_BIND_FAILED", "TOOLWARE_INVALID_BINDINGS"]).toContain(toolwareCode(error));
        }
      }),
    );
  });
});
