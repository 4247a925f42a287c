// Agents as tools: a tool that calls invoke, 1,000 levels deep, through each pack and all of them.
import { defineTool, type Tool, type ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { PACK_NAMES, withPacks } from "./test-fixtures.js";

type Input = { n: number; path: string };

// `sync`: the tool returns the nested call's promise, so the nesting is synchronous whenever the
// chain is; `async`: an async function awaiting it, as agent code usually is.
function nesting(hooks: ToolHooks, style: "sync" | "async"): Tool<Input, unknown> {
  const next = (n: number) => hooks.invoke(tool, { n: n - 1, path: "notes/a.txt" });
  const tool: Tool<Input, unknown> =
    style === "sync"
      ? defineTool({
          name: "sub_agent",
          execute: ({ n }: Input) => (n === 0 ? "bottom" : next(n).then((o) => (o.status === "ok" ? o.result : "x"))),
        })
      : defineTool({
          name: "sub_agent",
          execute: async ({ n }: Input) => {
            if (n === 0) return "bottom";
            const o = await next(n);
            return o.status === "ok" ? o.result : "x";
          },
        });
  return tool;
}

describe("1,000 nested calls", () => {
  for (const name of PACK_NAMES) {
    it(`work through ${name}`, async () => {
      for (const style of ["sync", "async"] as const) {
        const hooks = withPacks([name]);
        const outcome = await hooks.invoke(nesting(hooks, style), { n: 1_000, path: "notes/a.txt" });
        expect(outcome, `${name}, ${style}`).toMatchObject({ status: "ok", result: "bottom" });
      }
    }, 30_000);
  }

  it("work through every pack at once", async () => {
    for (const style of ["sync", "async"] as const) {
      const hooks = withPacks();
      const outcome = await hooks.invoke(nesting(hooks, style), { n: 1_000, path: "notes/a.txt" });
      expect(outcome, style).toMatchObject({ status: "ok", result: "bottom" });
    }
  }, 30_000);
});
