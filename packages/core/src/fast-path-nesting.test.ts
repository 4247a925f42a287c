import { describe, expect, it } from "vitest";
import { defineTool, type Tool, ToolHooks, toolwareCode } from "./index.js";

// A call with no hook has no context to hold its nesting depth: the depth must still pass from a
// call with hooks to one without and back, so that the limit holds whichever apps a tool calls.

type Nest = Tool<{ n: number }, string>;

function nestingThrough(apps: ToolHooks[], seen: { deepest: unknown }): Nest {
  const tool: Nest = defineTool({
    name: "nest",
    execute: ({ n }: { n: number }) =>
      n === 0
        ? "bottom"
        : (apps[n % apps.length] as ToolHooks).invoke(tool, { n: n - 1 }).then(
            (o) => o.result,
            (error: unknown) => {
              seen.deepest ??= error;
              throw error;
            },
          ),
  });
  return tool;
}

describe("nesting across calls with and without hooks", () => {
  it("allows 10,000 nested calls and refuses the next with TOOLWARE_CALL_TOO_DEEP, alternating apps", async () => {
    const bare = new ToolHooks();
    const hooked = new ToolHooks();
    hooked.before(() => undefined);
    const seen: { deepest: unknown } = { deepest: undefined };
    const tool = nestingThrough([bare, hooked], seen);
    await expect(bare.invoke(tool, { n: 10_000 })).resolves.toMatchObject({ status: "ok", result: "bottom" });
    expect(seen.deepest).toBeUndefined();
    const outcome = await hooked.invoke(tool, { n: 10_001 });
    expect(toolwareCode(seen.deepest)).toBe("TOOLWARE_CALL_TOO_DEEP");
    // The failed call's message is the result each caller above it hands on.
    expect(outcome.result).toContain("nest more than 10000 deep");
  });

  it("a wrapped tool called with no hook nests in its caller", async () => {
    const bare = new ToolHooks();
    const seen: { deepest: unknown } = { deepest: undefined };
    let wrapped: { execute: (input: { n: number }) => Promise<string> } | undefined;
    const tool: Nest = defineTool({
      name: "w",
      execute: ({ n }: { n: number }) =>
        n === 0
          ? "bottom"
          : (wrapped as NonNullable<typeof wrapped>).execute({ n: n - 1 }).catch((error: unknown) => {
              seen.deepest ??= error;
              throw error;
            }),
    });
    wrapped = bare.wrap(tool);
    const outcome = await bare.invoke(tool, { n: 10_001 });
    expect(outcome.result).toContain("nest more than 10000 deep");
    expect(toolwareCode(seen.deepest)).toBe("TOOLWARE_CALL_TOO_DEEP");
  });
});
