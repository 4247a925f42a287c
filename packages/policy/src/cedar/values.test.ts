import { describe, expect, it } from "vitest";
import { compileCedar } from "../index.js";
import { SCHEMA } from "./test-fixtures.js";

// Each forbid reads one argument; the permit lets everything else through, so "allow" means no forbid applied.
const engine = await compileCedar({
  file: "values.cedar",
  schema: SCHEMA,
  policies: `permit(principal, action, resource);
@id("zero") forbid(principal, action, resource) when { context has count && context.count == 0 };
@id("big") forbid(principal, action, resource) when { context has count && context.count > 1000 };
@id("amount") forbid(principal, action, resource) when { context has amount && context.amount.greaterThan(decimal("100.0")) };
@id("force") forbid(principal, action, resource) when { context has force && context.force };
@id("to") forbid(principal, action, resource) when { context has to && context.to.contains("boss@corp") };
@id("dots") forbid(principal, action, resource) when { context has path && context.path like "*..*" };
`,
});

const decide = (args: unknown) => engine.decide({ tool: "t", agent: "a", args });

describe("arguments as Cedar values", () => {
  it("integers are Long, -0 is 0", () => {
    expect(decide({ count: 5 }).effect).toBe("allow");
    expect(decide({ count: -0 }).policies).toEqual(["zero"]);
    expect(decide({ count: 2 ** 62 }).policies).toEqual(["big"]);
    expect(decide({ count: 5n }).effect).toBe("allow");
  });

  it("numbers Cedar cannot hold exactly are refused: deny, naming the argument", () => {
    for (const count of [Number.NaN, Number.POSITIVE_INFINITY, 2 ** 63, -(2 ** 64), 2n ** 60n, 1e-7]) {
      const decision = decide({ count });
      expect(decision.effect).toBe("deny");
      expect(decision.reason).toMatch(/argument `count`/);
    }
  });

  it("other numbers with at most 4 decimals are decimals; more decimals are refused", () => {
    expect(decide({ amount: 100.5 }).policies).toEqual(["amount"]);
    expect(decide({ amount: 99.9999 }).effect).toBe("allow");
    // Rounding 100.00001 to 100.0 would slip past the forbid: refused instead.
    expect(decide({ amount: 100.00001 })).toMatchObject({ effect: "deny", policies: [] });
  });

  it("arrays are sets, records nest; a type Cedar did not expect fails closed", () => {
    expect(decide({ to: ["a@b", "boss@corp"] }).policies).toEqual(["to"]);
    expect(decide({ to: ["a@b"] }).effect).toBe("allow");
    expect(decide({ to: "boss@corp" })).toMatchObject({ effect: "deny", policies: ["to"] });
    expect(decide({ path: { nested: { deeper: ["x", 1, true] } } }).effect).toBe("deny");
  });

  it("null or undefined under a key: absent; inside an array: refused", () => {
    expect(decide({ force: null, path: undefined }).effect).toBe("allow");
    expect(decide({ force: true }).policies).toEqual(["force"]);
    expect(decide({ to: ["a", null] })).toMatchObject({
      effect: "deny",
      reason: expect.stringMatching(/argument `to\[1\]` is null/),
    });
    const holey: unknown[] = [];
    holey[1] = "a";
    expect(decide({ to: holey }).effect).toBe("deny");
  });

  it("keys Cedar's JSON would read as entities or extensions are refused", () => {
    const forged = { to: { __entity: { type: "Agent", id: "a" } } };
    expect(decide(forged)).toMatchObject({ effect: "deny", reason: expect.stringMatching(/`__entity` is reserved/) });
    expect(decide({ amount: { __extn: { fn: "decimal", arg: "1.0" } } }).effect).toBe("deny");
  });

  it("only the arguments the policies read reach Cedar: a hostile value elsewhere changes nothing", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const args = { path: "/srv/a", content: "x".repeat(5_000_000), cyclic, when: new Date(0), __entity: 1 };
    expect(decide(args).effect).toBe("allow");
    expect(decide({ ...args, path: "/srv/../etc" }).policies).toEqual(["dots"]);
  });

  it("__proto__ and constructor are ordinary keys", async () => {
    const keys = await compileCedar({
      file: "proto.cedar",
      policies: 'forbid(principal, action, resource) when { context has "__proto__" || context has constructor };',
    });
    expect(keys.decide({ tool: "t", args: JSON.parse('{"__proto__": {"admin": true}}') }).effect).toBe("deny");
    expect(keys.decide({ tool: "t", args: { constructor: "x" } }).effect).toBe("deny");
    expect(keys.decide({ tool: "t", args: { other: 1 } }).effect).toBe("none");
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("too big, too deep, cyclic, or not plain data: refused, fast", async () => {
    const whole = await compileCedar({
      file: "whole.cedar",
      policies: "permit(principal, action, resource) when { context == context };",
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: unknown = "x";
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    const throwing = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    const getter = Object.defineProperty({}, "x", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    const cases: Array<[unknown, RegExp]> = [
      [{ s: "a".repeat(300_000) }, /more than 262144 characters/],
      [{ deep }, /nests deeper than 32 levels/],
      [{ cyclic }, /nests deeper/],
      [{ sparse }, /more than 10000 values/],
      [wide, /more than 10000 values/],
      [{ when: new Date(0) }, /is a Date, not plain data/],
      [{ m: new Map() }, /is a Map/],
      [{ f: () => 1 }, /is function/],
      [{ s: Symbol("x") }, /is symbol/],
      [{ s: "ok\uD800" }, /lone surrogate/],
      [["a"], /not a record/],
      ["text", /not a record/],
      [throwing, /trap/],
      [getter, /boom/],
    ];
    for (const [args, why] of cases) {
      const started = performance.now();
      const decision = whole.decide({ tool: "t", args });
      expect(decision.effect).toBe("deny");
      expect(decision.reason).toMatch(why);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect(whole.decide({ tool: "t", args: { s: "a".repeat(200_000), ok: "\uD83D\uDE80" } }).effect).toBe("allow");
    expect(whole.decide({ tool: "t", args: Object.create(null) }).effect).toBe("allow");
  });

  it("a call that is not a call fails closed", () => {
    expect(engine.decide(null as never).effect).toBe("deny");
    expect(engine.decide({ tool: 5 } as never).effect).toBe("deny");
    expect(engine.decide({ tool: "t", tags: [1] } as never).effect).toBe("deny");
  });
});
