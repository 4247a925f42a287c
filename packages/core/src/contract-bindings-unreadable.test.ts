// docs/troubleshooting.md, TOOLWARE_INVALID_BINDINGS: bindings toolware cannot use are refused with that code. A
// getter or Proxy trap that throws while the bindings are read is one such case: the caller gets the code (the
// thrown value as its cause), as explain() and requestHumanInput() do for what they cannot read.
import { describe, expect, it } from "vitest";
import { defineTool, ToolHooks, ToolwareTypeError, toolwareCode } from "./index.js";

const boom = new Error("no such agent");
const hostile = (): Record<string, unknown> => ({
  "a getter that throws": Object.defineProperty({}, "agent", {
    enumerable: true,
    get() {
      throw boom;
    },
  }),
  "an ownKeys trap that throws": new Proxy(
    {},
    {
      ownKeys() {
        throw boom;
      },
    },
  ),
  "a framework whose key throws": {
    callId: "c1",
    framework: Object.defineProperty({}, "name", {
      enumerable: true,
      get() {
        throw boom;
      },
    }),
  },
});

function coded(error: unknown): void {
  expect(error).toBeInstanceOf(ToolwareTypeError);
  expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_BINDINGS");
  expect((error as Error).cause).toBe(boom);
}

describe("bindings that cannot be read", () => {
  const tool = defineTool({ name: "read_file", execute: () => "ok" });

  for (const [name, bindings] of Object.entries(hostile())) {
    it(`invoke(): ${name} is TOOLWARE_INVALID_BINDINGS, and the tool never runs`, async () => {
      let ran = 0;
      const counted = defineTool({ name: "read_file", execute: () => ++ran });
      const hooks = new ToolHooks();
      let error: unknown;
      await hooks.invoke(counted, {}, bindings as never).catch((e: unknown) => {
        error = e;
      });
      coded(error);
      expect(ran).toBe(0);
    });
  }

  it("wrap(): a getter that throws is TOOLWARE_INVALID_BINDINGS where the tool is wrapped", () => {
    const hooks = new ToolHooks();
    let error: unknown;
    try {
      hooks.wrap(tool, hostile()["a getter that throws"] as never);
    } catch (e) {
      error = e;
    }
    coded(error);
  });

  it("a coded refusal of readable bindings is unchanged", async () => {
    const hooks = new ToolHooks();
    const error = await hooks.invoke(tool, {}, { agnet: 1 } as never).catch((e: unknown) => e);
    expect(toolwareCode(error)).toBe("TOOLWARE_UNKNOWN_OPTION");
  });
});
