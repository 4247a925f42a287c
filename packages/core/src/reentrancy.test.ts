// A tool that calls invoke (agents as tools, sub-agents): nesting must not cost stack.
import { describe, expect, it } from "vitest";
import { defineTool, type Tool, type ToolCallOutcome, ToolHooks, toolwareCode } from "./index.js";

type Nest = Tool<{ n: number }, string | Promise<string>>;

// A tool that calls itself through the hooks n times, synchronously (it returns the nested promise).
function nesting(hooks: ToolHooks): Nest {
  const tool: Nest = defineTool({
    name: "nest",
    execute: ({ n }: { n: number }): string | Promise<string> =>
      n === 0
        ? "bottom"
        : hooks.invoke(tool, { n: n - 1 }).then((o: ToolCallOutcome) => (o.status === "ok" ? o.result : "failed")),
  });
  return tool;
}

const stacks: Record<string, (hooks: ToolHooks) => void> = {
  "no hooks": () => {},
  "a sync before-hook and after-hook": (hooks) => {
    hooks.before(() => {});
    hooks.after((ctx) => ctx.toolResult);
  },
  "a middleware": (hooks) => {
    hooks.use(async (_ctx, next) => {
      await next();
    });
  },
  "an execution wrapper": (hooks) => {
    hooks.before((ctx) => ctx.wrapExecution((execute) => execute()));
  },
  "ten middlewares and a wrapper": (hooks) => {
    for (let i = 0; i < 10; i++) hooks.use((_ctx, next) => next());
    hooks.before((ctx) => ctx.wrapExecution((execute, _ctx, signal) => execute(signal)));
  },
};

describe("re-entrant calls", () => {
  for (const [name, build] of Object.entries(stacks)) {
    it(`nests 1,000 levels with ${name}`, async () => {
      const hooks = new ToolHooks();
      build(hooks);
      const outcome = await hooks.invoke(nesting(hooks), { n: 1_000 });
      expect(outcome).toMatchObject({ status: "ok", result: "bottom" });
    });
  }

  it("nests up to 10,000 levels, and refuses the next one with TOOLWARE_CALL_TOO_DEEP", async () => {
    const hooks = new ToolHooks();
    hooks.use((_ctx, next) => next());
    let deepest: unknown;
    const tool: Nest = defineTool({
      name: "nest",
      execute: ({ n }: { n: number }) =>
        n === 0
          ? "bottom"
          : hooks.invoke(tool, { n: n - 1 }).then(
              (o) => o.result,
              (error: unknown) => {
                deepest ??= error;
                throw error;
              },
            ),
    });
    // The outermost call is not nested: 10,000 nested ones below it are allowed.
    await expect(hooks.invoke(tool, { n: 10_000 })).resolves.toMatchObject({ status: "ok", result: "bottom" });
    expect(deepest).toBeUndefined();

    const outcome = await hooks.invoke(tool, { n: 10_001 });
    expect(toolwareCode(deepest)).toBe("TOOLWARE_CALL_TOO_DEEP");
    expect(String(deepest)).toMatch(/calls to nest nest more than 10000 deep/);
    // The level above the refused one fails with it; the levels above it return its failure message.
    expect(outcome.result).toMatch(/^Tool execution failed\. Tool: nest\. Error: toolware: calls to nest nest more/);
  }, 60_000);

  it("starts a nested call after the code that made it, with its own hooks and events", async () => {
    const hooks = new ToolHooks();
    const order: string[] = [];
    hooks.on("call:start", ({ ctx }) => order.push(`start ${ctx.toolName}`));
    hooks.before((ctx) => {
      order.push(`before ${ctx.toolName}`);
    });
    const inner = defineTool({ name: "inner", execute: () => "in" });
    const outer = defineTool({
      name: "outer",
      execute: () => {
        const nested = hooks.invoke(inner, {});
        order.push("outer went on");
        return nested.then((o) => `out(${o.result})`);
      },
    });
    await expect(hooks.invoke(outer, {})).resolves.toMatchObject({ result: "out(in)" });
    expect(order).toEqual(["start outer", "before outer", "outer went on", "start inner", "before inner"]);
  });

  it("counts depth only along synchronous nesting: unrelated calls in a row start at the top", async () => {
    const hooks = new ToolHooks();
    const leaf = defineTool({ name: "leaf", execute: () => "leaf" });
    const outcomes: ToolCallOutcome[] = [];
    for (let i = 0; i < 20_000; i++) outcomes.push(await hooks.invoke(leaf, {}));
    expect(outcomes.every((o) => o.status === "ok")).toBe(true);
  });
});
