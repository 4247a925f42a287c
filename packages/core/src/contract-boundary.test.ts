// Contract: wrong arguments are refused with a coded TypeError, never with whatever a hostile value
// threw. A Proxy whose traps throw (or a revoked one) is "not a plain object" where toolware asks
// for one: explain()'s query and requestHumanInput()'s options.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool, type ExplainQuery, type HumanInputOptions, ToolHooks, toolwareCode } from "./index.js";

const tool = defineTool({ name: "read_file", execute: () => "contents" });

const trap = () => {
  throw new Error("trap");
};
const throwingProxy = () =>
  new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap, has: trap, getOwnPropertyDescriptor: trap });
const revokedProxy = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe("explain() refuses a query it cannot read with a code", () => {
  it("a Proxy whose traps throw, or a revoked one, is TOOLWARE_INVALID_ARGUMENT", () => {
    const hooks = new ToolHooks();
    for (const query of [throwingProxy(), revokedProxy()]) {
      let error: unknown;
      try {
        hooks.explain(query as ExplainQuery);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_ARGUMENT");
    }
  });

  it("any non-query value is a coded TypeError; a good query still explains", () => {
    const hooks = new ToolHooks();
    hooks.before(() => undefined, { name: "audit" });
    fc.assert(
      // fast-check looks into what it generates: the Proxy is built inside the property.
      fc.property(fc.anything(), fc.boolean(), (value, hostile) => {
        const query = hostile ? throwingProxy() : value;
        try {
          hooks.explain(query as ExplainQuery);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect(toolwareCode(error)).toMatch(/^TOOLWARE_(INVALID_ARGUMENT|UNKNOWN_OPTION|INVALID_FILTER)$/);
        }
      }),
      { numRuns: 200 },
    );
    expect(hooks.explain({ toolName: "read_file" }).map((h) => h.name)).toEqual(["audit"]);
  });
});

describe("requestHumanInput() refuses options it cannot read with a code", () => {
  it("a Proxy whose traps throw, or a revoked one, as options or as the default message", async () => {
    const errors: unknown[] = [];
    const hooks = new ToolHooks({ humanInput: () => "yes" });
    hooks.before(async (ctx) => {
      for (const hostile of [throwingProxy(), revokedProxy()]) {
        await ctx.requestHumanInput("Go?", undefined, hostile as HumanInputOptions).catch((e) => errors.push(e));
        await ctx.requestHumanInput("Go?", hostile as string).catch((e) => errors.push(e));
      }
    });
    expect((await hooks.invoke(tool, {})).status).toBe("ok");
    expect(errors.map(toolwareCode)).toEqual([
      "TOOLWARE_INVALID_OPTION",
      "TOOLWARE_INVALID_ARGUMENT",
      "TOOLWARE_INVALID_OPTION",
      "TOOLWARE_INVALID_ARGUMENT",
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(TypeError);
  });
});
