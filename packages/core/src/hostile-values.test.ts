// Values that cannot be printed or inspected, thrown or returned by tools, hooks and middlewares:
// `invoke` never rejects for them (except under "throw"), the message stays readable, events fire.
import { describe, expect, it } from "vitest";
import {
  defineTool,
  type HookErrorPolicy,
  HookFailedError,
  messageOf,
  type ToolCallOutcome,
  ToolHooks,
  UNREADABLE_VALUE,
} from "./index.js";

const boom = (): never => {
  throw new Error("trap");
};
const trapProxy = () =>
  new Proxy(
    {},
    { get: boom, getPrototypeOf: boom, ownKeys: boom, has: boom, getOwnPropertyDescriptor: boom, apply: boom },
  );
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

/** Thrown values that cannot be printed, each with the text `messageOf` makes of it. */
const unprintable: Record<string, [make: () => unknown, text: string]> = {
  "throwing toString and toJSON": [() => ({ toString: boom, toJSON: boom }), "[object Object]"],
  "null-prototype cycle": [
    () => {
      const o = Object.create(null) as Record<string, unknown>;
      o.self = o;
      return o;
    },
    "[object Object]",
  ],
  "proxy whose traps throw": [trapProxy, UNREADABLE_VALUE],
  "revoked proxy": [revoked, UNREADABLE_VALUE],
  "Error whose message getter throws": [
    () => Object.defineProperty(new Error("hidden"), "message", { get: boom }),
    "[object Error]",
  ],
  "BigInt in an object": [() => ({ n: 1n }), "[object Object]"],
  symbol: [() => Symbol("odd"), "Symbol(odd)"],
};

/** Returned values whose inspection throws: a failure of whoever returned them. */
// biome-ignore-start lint/suspicious/noThenProperty: thenables that misbehave are the point
const uninspectable: Record<string, () => unknown> = {
  "revoked proxy": revoked,
  "proxy whose get trap throws": trapProxy,
  "throwing then getter": () => Object.defineProperty({}, "then", { get: boom }),
  "then that throws": () => ({ then: boom }),
  "then getter that throws the second time": () => {
    let reads = 0;
    return Object.defineProperty({}, "then", {
      get: () => (reads++ === 0 ? (resolve: (v: unknown) => void) => resolve("x") : boom()),
    });
  },
  "promise with a throwing constructor getter": () =>
    Object.defineProperty(Promise.resolve("x"), "constructor", { get: boom }),
  "promise whose own then throws": () => Object.defineProperty(Promise.resolve("x"), "then", { value: boom }),
};
// biome-ignore-end lint/suspicious/noThenProperty: thenables that misbehave are the point

type Place = "tool" | "async tool" | "before" | "async before" | "after" | "middleware in" | "middleware out";
const PLACES: Place[] = ["tool", "async tool", "before", "async before", "after", "middleware in", "middleware out"];

// A call where `value` is thrown (or rejected, or returned) at `place`.
function setup(place: Place, policy: HookErrorPolicy, value: () => unknown, mode: "throw" | "return") {
  const hooks = new ToolHooks({ onHookError: policy });
  const events: string[] = [];
  for (const event of ["call:end", "call:error", "call:blocked", "hook:error"] as const) {
    hooks.on(event, () => void events.push(event));
  }
  const act = (): unknown => {
    if (mode === "return") return value();
    throw value();
  };
  const later = async (): Promise<unknown> => {
    await Promise.resolve();
    return act();
  };
  const tool = defineTool({
    name: "t",
    execute: () => (place === "tool" ? act() : place === "async tool" ? later() : "fine"),
  });
  if (place === "before") hooks.before(() => act() as undefined, { name: "h" });
  if (place === "async before") hooks.before(() => later() as Promise<undefined>, { name: "h" });
  if (place === "after") hooks.after(() => act() as undefined, { name: "h" });
  if (place === "middleware in") {
    hooks.use(
      (_ctx, next) => {
        const value = act();
        return (mode === "return" ? value : next()) as Promise<void>;
      },
      { name: "h" },
    );
  }
  if (place === "middleware out") hooks.use((_ctx, next) => next().then(act) as Promise<void>, { name: "h" });
  return { run: () => hooks.invoke(tool, {}), events };
}

function expectEnded(outcome: ToolCallOutcome, place: Place, policy: HookErrorPolicy, text: string): void {
  expect(typeof outcome.result).toBe("string");
  if (place === "tool" || place === "async tool") {
    expect(outcome).toMatchObject({ status: "error", result: `Tool execution failed. Tool: t. Error: ${text}` });
  } else if (policy === "continue") {
    expect(outcome).toMatchObject({ status: "ok", result: "fine" });
    expect(outcome.trace.some((e) => e.action === "failed" && e.reason === `hook h failed: ${text}`)).toBe(true);
  } else {
    expect(outcome).toMatchObject({ status: "blocked", reason: `hook h failed: ${text}` });
    expect(outcome.result).toMatch(
      /^Tool (execution blocked|result withheld) by hook\. Tool: t\. Reason: hook h failed: /,
    );
  }
}

describe("messageOf", () => {
  it.each(Object.entries(unprintable))("reads a %s without throwing", (_name, [make, text]) => {
    expect(messageOf(make())).toBe(text);
  });

  it("keeps the plain forms", () => {
    expect([messageOf(new Error("a")), messageOf("b"), messageOf({ c: 1 }), messageOf(undefined)]).toEqual([
      "a",
      "b",
      '{"c":1}',
      "undefined",
    ]);
  });
});

describe("thrown values that cannot be printed", () => {
  for (const [name, [make, text]] of Object.entries(unprintable)) {
    for (const place of PLACES) {
      it(`${name}, thrown by the ${place}: the call ends readably under every policy`, async () => {
        for (const policy of ["block", "continue"] as const) {
          const { run, events } = setup(place, policy, make, "throw");
          expectEnded(await run(), place, policy, text);
          expect(events).toContain("call:end");
          expect(events).toContain(place.includes("tool") ? "call:error" : "hook:error");
        }
        if (place.includes("tool")) return;
        const { run, events } = setup(place, "throw", make, "throw");
        const error = await run().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(HookFailedError);
        expect((error as HookFailedError).message).toBe(`toolware: hook h failed: ${text}`);
        expect(events).toEqual(["hook:error", "call:error"]);
      });
    }
  }
});

describe("returned values whose inspection throws", () => {
  for (const [name, make] of Object.entries(uninspectable)) {
    for (const place of PLACES) {
      it(`${name}, returned by the ${place}: a failure of whoever returned it`, async () => {
        for (const policy of ["block", "continue", "throw"] as const) {
          const { run } = setup(place, policy, make, "return");
          const settled = await run().then(
            (outcome) => ({ outcome }),
            (error: unknown) => ({ error }),
          );
          if ("error" in settled) {
            expect(policy).toBe("throw");
            expect(settled.error).toBeInstanceOf(HookFailedError);
            continue;
          }
          const { outcome } = settled;
          expect(typeof outcome.result).toBe("string");
          // A then getter that works once may be read only once: then the value settles like any.
          if (name === "then getter that throws the second time") continue;
          if (place.includes("tool")) expect(outcome.status).toBe("error");
          else if (policy === "continue") expect(outcome.status).toBe("ok");
          else expect(outcome.status).toBe("blocked");
        }
      });
    }
  }
});
