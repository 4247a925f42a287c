// The adapter kit's call-boundary helpers on their own: hostile values never escape them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adviseDeveloper,
  claimGuard,
  guardOf,
  linkAbort,
  readArguments,
  refusedOutcome,
  ToolHooks,
  ToolwareError,
  toolwareCode,
} from "./index.js";

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe("readArguments", () => {
  it("passes an object through as it is and refuses anything else with TOOLWARE_INVALID_INPUT", () => {
    const args = { city: "Oslo" };
    expect(readArguments("weather", args)).toBe(args);
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.array(fc.anything()), fc.integer(), fc.boolean(), fc.constantFrom(null, undefined)),
        (value) => {
          let error: unknown;
          try {
            readArguments("weather", value);
          } catch (e) {
            error = e;
          }
          expect(error).toBeInstanceOf(TypeError);
          expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_INPUT");
          expect((error as Error).message).toMatch(
            /^toolware: the arguments of weather must be a JSON object of named fields, got /,
          );
        },
      ),
    );
    expect(() => readArguments("t", revoked())).toThrow(/got a value that cannot be read/);
    expect(() => readArguments("t", undefined)).toThrow(/got no arguments/);
    expect(() => readArguments("t", Symbol("s"))).toThrow(/got a symbol/);
  });
});

describe("refusedOutcome", () => {
  it("lets the model read a reason it can fix, and only the code of any other; the developer gets the error", () => {
    const reported: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push([where, error]) });
    let bad: unknown;
    try {
      readArguments("t", "x");
    } catch (e) {
      bad = e;
    }
    expect(refusedOutcome(hooks, "toy", "t", "c1", bad).result).toBe(
      "Tool execution failed. Tool: t. Error: toolware: the arguments of t must be a JSON object of named fields, got a string (TOOLWARE_INVALID_INPUT)",
    );
    expect(reported).toEqual([]);
    const internal = new ToolwareError("TOOLWARE_BIND_FAILED", "bind() threw: db at 10.0.0.7 down");
    const outcome = refusedOutcome(hooks, "toy", "t", "c2", internal);
    expect(outcome).toMatchObject({ status: "error", callId: "c2", toolName: "t", error: internal });
    expect(outcome.result).toBe(
      "Tool execution failed. Tool: t. Error: the call could not be run (TOOLWARE_BIND_FAILED)",
    );
    for (const hostile of [null, undefined, Symbol("s"), revoked()]) {
      expect(refusedOutcome(hooks, "toy", "t", "c3", hostile).result).toBe(
        "Tool execution failed. Tool: t. Error: the call could not be run",
      );
    }
    expect(reported.map(([where]) => where)).toEqual(["toy", "toy", "toy", "toy", "toy"]);
  });

  it("adviseDeveloper never throws, even when onListenerError does and console.error is gone", () => {
    const hooks = new ToolHooks({
      onListenerError: () => {
        throw new Error("listener");
      },
    });
    const error = console.error;
    console.error = undefined as never;
    try {
      expect(() => adviseDeveloper(hooks, "toy", new Error("advice"))).not.toThrow();
    } finally {
      console.error = error;
    }
  });
});

describe("claimGuard and guardOf", () => {
  it("records the guard once and refuses a second one with the adapter's code", () => {
    const hooks = new ToolHooks();
    const target = {};
    expect(guardOf(target)).toBeUndefined();
    expect(guardOf(null)).toBeUndefined();
    expect(guardOf("x")).toBeUndefined();
    claimGuard(target, hooks, "TOOLWARE_TOY_ALREADY_GUARDED", "the tool t");
    expect(guardOf(target)).toBe(hooks);
    expect(() => claimGuard(target, hooks, "TOOLWARE_TOY_ALREADY_GUARDED", "the tool t")).toThrow(
      /^toolware: the tool t is already guarded: its calls would run two chains; guard it once$/,
    );
    try {
      claimGuard(target, new ToolHooks(), "TOOLWARE_TOY_ALREADY_GUARDED", "the tool t");
    } catch (error) {
      expect(toolwareCode(error)).toBe("TOOLWARE_TOY_ALREADY_GUARDED");
      expect((error as Error).message).toMatch(/already guarded by another ToolHooks/);
    }
  });
});

describe("linkAbort", () => {
  it("aborts each follower with the source's reason through one listener, and unlinks", () => {
    const source = new AbortController();
    let listeners = 0;
    const add = source.signal.addEventListener.bind(source.signal);
    source.signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof add;
    const followers = Array.from({ length: 20 }, () => new AbortController());
    const unlinks = followers.map((f) => linkAbort(source.signal, f));
    expect(listeners).toBe(1);
    const gone = followers[0] as AbortController;
    (unlinks[0] as () => void)();
    source.abort("stop");
    expect(gone.signal.aborted).toBe(false);
    expect(followers.slice(1).every((f) => f.signal.reason === "stop")).toBe(true);
    expect(() => linkAbort(undefined, new AbortController())()).not.toThrow();
    const late = new AbortController();
    linkAbort(source.signal, late);
    expect(late.signal.reason).toBe("stop");
  });
});
