import { describe, expect, it } from "vitest";
import { ToolHooks, toolwareCode } from "./index.js";

// Runs before any tool of this process was checked: the one-entry memo of the last checked tool must
// not take `undefined` (its initial state) for a tool it has seen.
describe("the first call of a process", () => {
  it("refuses a missing tool with a coded error, through invoke and wrap alike", async () => {
    const hooks = new ToolHooks();
    const rejected = await hooks.invoke(undefined as never).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(TypeError);
    expect(toolwareCode(rejected)).toBe("TOOLWARE_INVALID_TOOL");
    let thrown: unknown;
    try {
      hooks.wrap(undefined as never);
    } catch (error) {
      thrown = error;
    }
    expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_TOOL");
    expect(String(thrown)).toMatch(/needs a tool made with defineTool\(\)/);
  });
});
