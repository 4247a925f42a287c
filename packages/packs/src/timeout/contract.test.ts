// docs/packs/timeout.md: "The call ends on time even if the tool ignores its signal". That holds whatever the
// `message` function does when the limit is reached: it used to throw inside the timer (an uncaught exception that
// crashed the process and left the call hanging).
import { defineTool, ToolHooks, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { ToolTimeoutError, timeout } from "@toolware/packs/timeout";
import { describe, expect, it } from "vitest";

const hang = defineTool({ name: "web_search", execute: () => new Promise<string>(() => {}) });

describe("timeout: a message function that fails", () => {
  const failing: [string, () => unknown][] = [
    [
      "throws",
      () => {
        throw new Error("formatter down");
      },
    ],
    ["returns a number", () => 42],
    ["returns a blank string", () => "  "],
    ["returns a promise", () => Promise.resolve("later")],
  ];
  for (const [label, message] of failing) {
    it(`${label}: the call still ends on time with the default message, and the failure is reported`, async () => {
      const reported: string[] = [];
      const hooks = new ToolHooks({ onListenerError: (where) => reported.push(where) });
      hooks.use(timeout({ ms: 20, message: message as () => string }));
      const out = await hooks.invoke(hang, {});
      expect(out.status).toBe("error");
      expect(out.error).toBeInstanceOf(ToolTimeoutError);
      expect((out.error as Error).message).toBe("web_search timed out after 20 ms");
      expect(reported).toEqual(["timeout.message"]);
    });
  }

  it("a message function that works is used as before", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 20, message: (tool, ms) => `${tool} gave up at ${ms}` }));
    const out = await hooks.invoke(hang, {});
    expect((out.error as Error).message).toBe("web_search gave up at 20");
  });

  it("a blank message string is refused when the pack is made", () => {
    for (const message of ["", "   "]) {
      expect(() => timeout({ ms: 20, message })).toThrow(ToolwareTypeError);
      try {
        timeout({ ms: 20, message });
      } catch (error) {
        expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
      }
    }
  });

  it("ms.perTool is read once, and must be an object", () => {
    let reads = 0;
    const ms = {
      get perTool(): Record<string, number> {
        reads++;
        return reads === 1 ? { web_search: 20 } : { other_tool: 20 };
      },
    };
    const pack = timeout({ ms });
    expect(pack.limitFor("web_search")).toBe(20);
    expect(pack.limitFor("other_tool")).toBeUndefined();
    expect(reads).toBe(1);
    for (const perTool of [null, [20], "web_search"]) {
      expect(() => timeout({ ms: { perTool: perTool as never } })).toThrow(ToolwareTypeError);
    }
  });

  it("ms.perTool names are checked by the factory: none that normalises to nothing, no tool twice", () => {
    const lists: Record<string, number>[] = [
      { "---": 20 },
      { "Web Search": 10, web_search: 20 },
      { webSearch: 10, WEB_SEARCH: 20 },
    ];
    for (const perTool of lists) {
      let thrown: unknown;
      try {
        timeout({ ms: { perTool } });
      } catch (error) {
        thrown = error;
      }
      expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_OPTION");
    }
    expect(timeout({ ms: { perTool: { "Web Search": 10, read_file: 20 } } }).limitFor("web_search")).toBe(10);
  });
});
