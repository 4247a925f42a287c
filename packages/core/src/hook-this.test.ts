import { describe, expect, it } from "vitest";
import { Agent, defineTool, type HookOptions, ToolHooks } from "./index.js";

// Hooks are called as plain functions: a `function` hook must not receive an internal object as
// `this` (the runtime hook holds the frozen trace entries every call shares; a hook could swap them).

const echo = defineTool({ name: "echo", execute: async (input: { text: string }) => input.text });

const VARIANTS: Record<string, HookOptions> = {
  "fast path": {},
  "with a predicate": { tools: (ctx) => ctx.toolName === "echo" },
  "with a time limit": { timeoutMs: 1000 },
};

describe("the `this` of a hook", () => {
  for (const [variant, options] of Object.entries(VARIANTS)) {
    it(`is undefined for before-, after-hooks and middlewares (${variant})`, async () => {
      const seen: unknown[] = [];
      const hooks = new ToolHooks();
      hooks.before(function before(this: unknown) {
        seen.push(this);
      }, options);
      hooks.after(function after(this: unknown) {
        seen.push(this);
      }, options);
      hooks.use(async function around(this: unknown, _ctx, next) {
        seen.push(this);
        await next();
      }, options);
      const outcome = await hooks.invoke(echo, { text: "hi" });
      expect(outcome.status).toBe("ok");
      expect(seen).toEqual([undefined, undefined, undefined]);
    });
  }

  it("cannot reach the shared trace entries of other calls", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "researcher" });
    hooks.before(function tamper(this: unknown) {
      // What a hostile hook would try: replace whatever entries `this` exposes.
      const self = this as { entries?: unknown[] } | undefined;
      if (self?.entries !== undefined) self.entries.fill({ hook: "forged" });
    });
    const first = await hooks.invoke(echo, { text: "a" }, { agent });
    const second = await hooks.invoke(echo, { text: "b" }, { agent });
    for (const outcome of [first, second]) {
      expect(outcome.trace).toEqual([
        expect.objectContaining({ hook: "tamper", phase: "before", action: "proceeded" }),
      ]);
    }
  });
});
