import { Environment } from "@marcbachmann/cel-js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CEL_LIMITS, type CelFacts, compileCondition } from "./cel.js";
import { projectArgs } from "./project.js";

const tool = { name: "t", tags: [], destructive: false };
const facts = { tool, agent: "", crew: "", caller: "" };
const small = { maxNodes: 3, maxChars: 10, maxDepth: 4 };

describe("CEL conditions: the per-call fast paths keep every limit", () => {
  it("counts scalar keys and nested values against one budget", () => {
    // Scalars alone, together over the characters or values.
    expect(() => projectArgs({ a: "xxxxxx", b: "xxxxxx" }, ["a", "b"], small)).toThrow(/characters/);
    expect(() => projectArgs({ a: 1, b: 2, c: 3, d: 4 }, ["a", "b", "c", "d"], small)).toThrow(/values/);
    // Scalars first, then an object: what the scalars used still counts.
    expect(() => projectArgs({ a: "xxxxxx", b: { c: "xxxxxx" } }, ["a", "b"], small)).toThrow(/characters/);
    expect(() => projectArgs({ a: 1, b: 2, c: [1] }, ["a", "b", "c"], small)).toThrow(/values/);
    // Within the budget: handed over as it is.
    const ok = { a: "xx", b: { c: "xx" } };
    expect(projectArgs(ok, ["a", "b"], small)).toBe(ok);
    // A getter after scalars still refuses the whole call.
    const getter = Object.defineProperty({ a: "x" }, "b", { get: () => "y", enumerable: true });
    expect(() => projectArgs(getter, ["a", "b"], small)).toThrow(/getter/);
  });

  it("evaluates again after a call that failed closed", () => {
    const c = compileCondition('args.p == "ok"');
    expect(() => c.evaluate({ ...facts, args: { p: "x".repeat(CEL_LIMITS.maxArgChars + 1) } })).toThrow(/characters/);
    expect(c.evaluate({ ...facts, args: { p: "ok" } })).toBe(true);
    expect(c.evaluate({ ...facts, args: { p: "no" } })).toBe(false);
  });

  it("decides a nested evaluation of the same condition on its own arguments", () => {
    const c = compileCondition('args.p == "outer" && agent == "a"');
    let inner: boolean | undefined;
    const outer: CelFacts = {
      tool,
      crew: "",
      caller: "",
      args: { p: "outer" },
      // A caller's getter, read after the outer call's arguments are in place, evaluates the same condition.
      get agent() {
        inner = c.evaluate({ ...facts, agent: "a", args: { p: "inner" } });
        return "a";
      },
    };
    expect(c.evaluate(outer)).toBe(true);
    expect(inner).toBe(false);
    expect(c.evaluate({ ...facts, agent: "a", args: { p: "outer" } })).toBe(true);
  });

  it("agrees with a bare evaluation on random arguments, call after call", () => {
    const env = new Environment({ homogeneousAggregateLiterals: false })
      .registerVariable("args", "map")
      .registerVariable("tool", "map")
      .registerVariable("agent", "string")
      .registerVariable("crew", "string")
      .registerVariable("caller", "string");
    const source = 'has(args.q) && string(args.q).size() < 5 && (!has(args.n) || args.n == "x")';
    const bare = env.parse(source);
    const c = compileCondition(source);
    const value = fc.oneof(fc.string({ maxLength: 8 }), fc.constant("x"), fc.integer(), fc.boolean());
    fc.assert(
      fc.property(
        fc.record({ q: value, n: value }, { requiredKeys: [] }),
        fc.string({ maxLength: 3 }),
        (args, agent) => {
          let expected: unknown;
          try {
            expected = bare({ args, tool, agent, crew: "", caller: "" });
          } catch {
            expected = "error";
          }
          let got: unknown;
          try {
            got = c.evaluate({ ...facts, agent, args });
          } catch {
            got = "error";
          }
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
