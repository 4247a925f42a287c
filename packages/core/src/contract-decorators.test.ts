// Contract: a decorator's options are read once, where the decorator is written. Every function or
// instance it registers runs with the values that were checked then, and an option that cannot be
// read is a coded TypeError at that point, never a hook registered with some other policy or layer.
import { describe, expect, it } from "vitest";
import {
  beforeToolCall,
  beforeToolCallCrew,
  Crew,
  type DecoratorOptions,
  defineTool,
  ToolHooks,
  toolwareCode,
} from "./index.js";

const tool = defineTool({ name: "delete_file", execute: () => "deleted" });

/** Options whose `key` getter answers `first` once, then `later`. */
function flipping(key: string, first: unknown, later: unknown, base: object = {}): DecoratorOptions {
  let reads = 0;
  return Object.defineProperty({ ...base }, key, {
    get: () => (reads++ === 0 ? first : later),
    enumerable: true,
  }) as DecoratorOptions;
}

describe("decorator options are read once", () => {
  it("an onError getter that flips to continue after the check still blocks (free function)", async () => {
    const hooks = new ToolHooks();
    beforeToolCall(flipping("onError", "block", "continue", { hooks }))(() => {
      throw new Error("guard failed");
    });
    expect(hooks.list()[0]?.onError).toBe("block");
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });

  it("a hooks getter that flips registers on the instance that was checked", () => {
    const hooks = new ToolHooks();
    const other = new ToolHooks();
    const fn = () => false;
    beforeToolCall(flipping("hooks", hooks, other))(fn);
    expect(hooks.list().map((h) => h.fn)).toEqual([fn]);
    expect(other.list()).toEqual([]);
  });

  it("every crew instance registers the checked options, however often a getter is asked", async () => {
    const options = flipping("onError", "block", "continue");
    class Guarded extends Crew {
      @beforeToolCallCrew(options)
      refuse(): boolean {
        throw new Error("guard failed");
      }
    }
    for (const crew of [new Guarded({ name: "a" }), new Guarded({ name: "b" })]) {
      expect(crew.list()[0]).toMatchObject({ name: "refuse", onError: "block" });
      const hooks = new ToolHooks({ onHookError: "continue" });
      expect((await hooks.invoke(tool, {}, { crew })).status).toBe("blocked");
      crew.dispose();
    }
  });

  it("an option whose getter throws is TOOLWARE_INVALID_OPTION where the decorator is written", () => {
    for (const key of ["hooks", "onError", "tools", "name"]) {
      const options = Object.defineProperty({}, key, {
        get: () => {
          throw new Error("hostile");
        },
        enumerable: true,
      }) as DecoratorOptions;
      let error: unknown;
      try {
        beforeToolCall(options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
    }
  });

  it("a misspelt option is still refused where the decorator is written", () => {
    expect(() => beforeToolCall({ onErorr: "block" } as DecoratorOptions)).toThrow(/did you mean `onError`/);
  });
});
