// Property: whatever tools, hooks and middlewares throw, reject, return or resolve to, `invoke`
// settles, never rejects unless a hook's policy is "throw" (then with HookFailedError), and the
// outcome's result is a string.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  type HookErrorPolicy,
  HookFailedError,
  messageOf,
  type ToolCallOutcome,
  ToolHooks,
} from "./index.js";

const thrower = (label: string) => () => {
  throw new Error(label);
};

// fast-check itself looks into the values it generates: hostile ones are built at use time from a
// description it can look into, and print as it.
interface Hostile {
  readonly label: string;
  make(): unknown;
}
const hostileOf = (label: string, make: () => unknown): Hostile => ({ label, make, toString: () => label }) as Hostile;

// An object whose chosen properties are getters that throw.
const throwingGetters = fc
  .tuple(fc.subarray(["then", "message", "name", "toString", "toJSON", "constructor", "valueOf", "stack"]), fc.string())
  .map(([keys, extra]) =>
    hostileOf(`getters ${[...keys, extra].join(",")}`, () => {
      const o: Record<string, unknown> = {};
      for (const key of new Set([...keys, extra]))
        Object.defineProperty(o, key, { get: thrower(key), enumerable: true });
      return o;
    }),
  );

const TRAPS = [
  "get",
  "getPrototypeOf",
  "ownKeys",
  "has",
  "getOwnPropertyDescriptor",
  "defineProperty",
  "apply",
] as const;
const proxies = fc.tuple(fc.subarray([...TRAPS], { minLength: 1 }), fc.boolean()).map(([traps, callable]) =>
  hostileOf(`proxy ${traps.join(",")}${callable ? " (callable)" : ""}`, () => {
    const handler: ProxyHandler<object> = {};
    for (const trap of traps) (handler as Record<string, unknown>)[trap] = thrower(trap);
    return new Proxy(callable ? () => {} : {}, handler);
  }),
);

const revoked = fc.constant(
  hostileOf("revoked proxy", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }),
);

const anything = fc
  .anything({ withBigInt: true, withNullPrototype: true, withMap: true, withSet: true })
  .map((value) => hostileOf(fc.stringify(value), () => value));

const errors = fc.oneof(
  anything.map((m) =>
    hostileOf(`Error with message ${m.label}`, () => Object.assign(new Error("x"), { message: m.make() })),
  ),
  fc.constant(
    hostileOf("Error with a throwing message getter", () =>
      Object.defineProperty(new Error("x"), "message", { get: thrower("message") }),
    ),
  ),
);

const plainHostile = fc.oneof(
  { arbitrary: anything, weight: 4 },
  { arbitrary: throwingGetters, weight: 2 },
  { arbitrary: proxies, weight: 2 },
  { arbitrary: revoked, weight: 1 },
  { arbitrary: errors, weight: 1 },
);

// Thenables that settle (at once or later), throw, settle twice, or settle with hostile values.
const thenables = fc
  .tuple(fc.constantFrom("resolve", "reject", "throw", "twice", "later", "laterReject"), plainHostile)
  .map(([how, inner]) =>
    hostileOf(`thenable ${how} ${inner.label}`, () => ({
      // biome-ignore lint/suspicious/noThenProperty: a thenable that misbehaves is the point
      then(resolve: (v: unknown) => void, reject: (e: unknown) => void) {
        const value = inner.make();
        if (how === "resolve") resolve(value);
        else if (how === "reject") reject(value);
        else if (how === "throw") throw value;
        else if (how === "twice") {
          resolve(value);
          reject(value);
          resolve("again");
        } else setTimeout(() => (how === "later" ? resolve(value) : reject(value)), 0);
      },
    })),
  );

const hostile = fc.oneof({ arbitrary: plainHostile, weight: 3 }, { arbitrary: thenables, weight: 1 });

type Place = "tool" | "before" | "after" | "middlewareIn" | "middlewareOut";
type How = "throw" | "reject" | "return" | "resolve";
interface Actor {
  place: Place;
  how: How;
  value: Hostile;
  policy: HookErrorPolicy | undefined;
}

const actor: fc.Arbitrary<Actor> = fc.record({
  place: fc.constantFrom<Place>("tool", "before", "after", "middlewareIn", "middlewareOut"),
  how: fc.constantFrom<How>("throw", "reject", "return", "resolve"),
  value: hostile,
  policy: fc.constantFrom<HookErrorPolicy | undefined>(undefined, "block", "continue", "throw"),
});

function act(how: How, hostile: Hostile): unknown {
  const value = hostile.make();
  if (how === "throw") throw value;
  if (how === "reject") return Promise.reject(value);
  if (how === "resolve") return Promise.resolve().then(() => value);
  return value;
}

function build(policy: HookErrorPolicy, actors: Actor[]) {
  const hooks = new ToolHooks({ onHookError: policy, onListenerError: () => {} });
  let events = 0;
  hooks.on("call:end", () => void events++);
  const tools = actors.filter((a) => a.place === "tool");
  const tool = defineTool({
    name: "fuzzed",
    execute: () => {
      const [first] = tools;
      return first === undefined ? "fine" : act(first.how, first.value);
    },
  });
  for (const a of actors) {
    const options = a.policy === undefined ? {} : { onError: a.policy };
    if (a.place === "before") hooks.before(() => act(a.how, a.value) as undefined, options);
    if (a.place === "after") hooks.after(() => act(a.how, a.value) as undefined, options);
    if (a.place === "middlewareIn") hooks.use(() => act(a.how, a.value) as Promise<void>, options);
    if (a.place === "middlewareOut") hooks.use((_c, next) => next().then(() => act(a.how, a.value)) as never, options);
  }
  return { hooks, tool, events: () => events };
}

const HANG = Symbol("hang");

describe("hostile values, fuzzed", () => {
  it('never make invoke reject (but under "throw", with HookFailedError), hang, or return a non-string', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<HookErrorPolicy>("block", "continue", "throw"),
        fc.array(actor, { minLength: 1, maxLength: 4 }),
        async (policy, actors) => {
          const { hooks, tool, events } = build(policy, actors);
          let timer: ReturnType<typeof setTimeout> | undefined;
          const hang = new Promise<typeof HANG>((resolve) => {
            timer = setTimeout(() => resolve(HANG), 2_000);
          });
          const settled = await Promise.race([
            hooks.invoke(tool, {}).then(
              (outcome: ToolCallOutcome) => ({ outcome }),
              (error: unknown) => ({ error }),
            ),
            hang,
          ]);
          clearTimeout(timer);
          expect(settled).not.toBe(HANG);
          if (settled === HANG) return;
          if ("error" in settled) {
            const mayThrow = actors.some((a) => a.place !== "tool" && (a.policy ?? policy) === "throw");
            expect(mayThrow).toBe(true);
            expect(settled.error).toBeInstanceOf(HookFailedError);
            expect(typeof (settled.error as HookFailedError).message).toBe("string");
            return;
          }
          expect(typeof settled.outcome.result).toBe("string");
          expect(["ok", "blocked", "error"]).toContain(settled.outcome.status);
          expect(events()).toBe(1);
        },
      ),
      { numRuns: 400 },
    );
  }, 120_000);

  it("never make messageOf throw", () => {
    fc.assert(
      fc.property(hostile, (value) => {
        expect(typeof messageOf(value.make())).toBe("string");
      }),
      { numRuns: 1_000 },
    );
  });
});
