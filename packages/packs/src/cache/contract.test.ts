// docs/packs/cache.md: `invalidate(tool, input?)` "drops one input's entry or all of a tool's entries". An argument it
// cannot read matched no entry and resolved as if it had worked, so the stale result went on being served; it is
// refused now (the promise rejects with TOOLWARE_INVALID_ARGUMENT).
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { cache } from "@toolware/packs/cache";
import { describe, expect, it } from "vitest";

function weatherCache() {
  let runs = 0;
  const tool = defineTool({ name: "get_weather", execute: () => `sunny #${++runs}` });
  const pack = cache({ tools: "get_weather" });
  const hooks = new ToolHooks();
  hooks.use(pack);
  return { tool, pack, hooks, runs: () => runs };
}

describe("cache: invalidate() arguments", () => {
  it("a tool or its name, with or without an input object, drops the entry", async () => {
    for (const args of [["get_weather"], ["get_weather", { city: "Paris" }], ["tool"], ["tool", { city: "Paris" }]]) {
      const { tool, pack, hooks, runs } = weatherCache();
      await hooks.invoke(tool, { city: "Paris" });
      const target = args[0] === "tool" ? tool : "get_weather";
      expect(await pack.invalidate(target, args[1] as { city: string } | undefined)).toBe(1);
      await hooks.invoke(tool, { city: "Paris" });
      expect(runs()).toBe(2);
    }
  });

  it("anything else rejects with TOOLWARE_INVALID_ARGUMENT and drops nothing", async () => {
    const bad: unknown[][] = [
      [undefined],
      [null],
      [42],
      [""],
      [{}],
      [{ name: 7 }],
      ["get_weather", "Paris"],
      ["get_weather", ["Paris"]],
      ["get_weather", null],
      ["get_weather", new Map([["city", "Paris"]])],
    ];
    for (const args of bad) {
      const { tool, pack, hooks, runs } = weatherCache();
      await hooks.invoke(tool, { city: "Paris" });
      const invalidate = pack.invalidate as (...a: unknown[]) => Promise<number>;
      let thrown: unknown;
      await invalidate(...args).catch((error: unknown) => {
        thrown = error;
      });
      expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_ARGUMENT");
      await hooks.invoke(tool, { city: "Paris" });
      expect(runs()).toBe(1);
    }
  });
});
