import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool, type HookErrorPolicy, type ToolHooks as Hooks, ToolHooks, toolwareCode } from "./index.js";

// Plain hooks are folded into the steps of the middlewares around them. Whatever a mix of hooks
// and middlewares returns or throws, a call never rejects unless a hook's policy is "throw",
// and call:start is followed by exactly one call:end.

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const hostileValues: (() => unknown)[] = [
  revoked,
  () => Symbol("s"),
  () => 7n,
  // biome-ignore lint/suspicious/noThenProperty: a then getter that throws is the point
  () => Object.defineProperty({}, "then", { get: () => revoked() }),
  () =>
    // biome-ignore lint/suspicious/noThenProperty: a then getter that throws is the point
    Object.defineProperty({}, "then", {
      get: () => {
        throw revoked();
      },
    }),
  () => ({
    toJSON: () => {
      throw new Error("toJSON");
    },
  }),
  () =>
    new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw revoked();
        },
      },
    ),
];

const behaviours = [
  "noop",
  "asyncNoop",
  "throws",
  "rejects",
  "returns",
  "resolves",
  "block",
  "respond",
  "skipNext",
  "nextTwice",
  "nextNoAwait",
] as const;
type Behaviour = (typeof behaviours)[number];
type Kind = "before" | "after" | "middleware";
interface HookCase {
  kind: Kind;
  behaviour: Behaviour;
  value: number;
  policy: HookErrorPolicy;
}

function register(hooks: Hooks, c: HookCase): void {
  const value = () => (hostileValues[c.value % hostileValues.length] as () => unknown)();
  const options = { onError: c.policy };
  if (c.kind === "middleware") {
    hooks.use(async (ctx, next) => {
      if (c.behaviour === "throws") throw value();
      if (c.behaviour === "rejects") return Promise.reject(value());
      if (c.behaviour === "block") return ctx.block("mw");
      if (c.behaviour === "respond") return ctx.respond("substitute");
      if (c.behaviour === "skipNext") return;
      if (c.behaviour === "nextTwice") {
        await next();
        await next();
        return;
      }
      if (c.behaviour === "nextNoAwait") {
        void next();
        return value() as void;
      }
      await next();
      if (c.behaviour === "returns" || c.behaviour === "resolves") return value() as void;
    }, options);
    return;
  }
  const fn = (ctx: Parameters<Parameters<Hooks["before"]>[0]>[0]): unknown => {
    if (c.behaviour === "throws") throw value();
    if (c.behaviour === "rejects") return Promise.reject(value());
    if (c.behaviour === "returns") return value();
    if (c.behaviour === "resolves") return Promise.resolve().then(value);
    if (c.behaviour === "asyncNoop") return Promise.resolve();
    if (c.behaviour === "block") return ctx.block("plain");
    if (c.behaviour === "respond") return ctx.respond("substitute");
    return undefined;
  };
  if (c.kind === "before") hooks.before(fn as never, options);
  else hooks.after(fn as never, options);
}

const hookCase = fc.record<HookCase>({
  kind: fc.constantFrom("before", "after", "middleware"),
  behaviour: fc.constantFrom(...behaviours),
  value: fc.nat(),
  policy: fc.constantFrom("block", "continue", "throw"),
});

describe("chains of plain hooks and middlewares", () => {
  it("never reject unless a hook's policy is throw, and end every call once (property)", async () => {
    const tool = defineTool({ name: "t", execute: async () => ({ ok: true }) });
    await fc.assert(
      fc.asyncProperty(fc.array(hookCase, { maxLength: 5 }), async (cases) => {
        const hooks = new ToolHooks({ onListenerError: () => {} });
        for (const c of cases) register(hooks, c);
        const events: string[] = [];
        hooks.on("call:start", () => events.push("start"));
        hooks.on("call:end", () => events.push("end"));
        let rejected: unknown;
        let status: string | undefined;
        try {
          status = (await hooks.invoke(tool, {})).status;
        } catch (error) {
          rejected = error;
        }
        if (rejected !== undefined) {
          expect(cases.some((c) => c.policy === "throw")).toBe(true);
          expect(events).toEqual(["start"]);
        } else {
          expect(["ok", "blocked", "error"]).toContain(status);
          expect(events).toEqual(["start", "end"]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("with only hooks that do nothing, settle as a call with no hook (property)", async () => {
    const tool = defineTool({ name: "t", execute: async () => ({ ok: true }) });
    const bare = await new ToolHooks().invoke(tool, {});
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            kind: fc.constantFrom<Kind>("before", "after", "middleware"),
            behaviour: fc.constantFrom<Behaviour>("noop", "asyncNoop"),
            value: fc.constant(0),
            policy: fc.constantFrom<HookErrorPolicy>("block", "continue", "throw"),
          }),
          { maxLength: 6 },
        ),
        async (cases) => {
          const hooks = new ToolHooks();
          for (const c of cases) register(hooks, c);
          const o = await hooks.invoke(tool, {});
          expect({ status: o.status, result: o.result, code: toolwareCode(o.error) }).toEqual({
            status: bare.status,
            result: bare.result,
            code: undefined,
          });
          expect(o.trace).toHaveLength(cases.length);
        },
      ),
      { numRuns: 100 },
    );
  });
});
