import { describe, expect, it } from "vitest";
import {
  defineTool,
  type HookOptions,
  type Tool,
  type ToolCallHookContext,
  type ToolCallOutcome,
  ToolHooks,
} from "./index.js";

// A plain middleware (no predicate, no time limit, no `timing`) runs without a clock; one with a
// predicate that always passes, a time limit or under `timing: true` runs with one. The tool's
// continuation is the same for a native promise, a plain value, a foreign thenable and a failure.
// Whatever the middleware does, every combination must end the call alike, entry by entry.

type Ctx = ToolCallHookContext<{ text: string }, unknown>;
type Middleware = (ctx: Ctx, next: () => Promise<void>) => unknown;

const MIDDLEWARES: Record<string, Middleware> = {
  "awaits next": async (_ctx, next) => {
    await next();
  },
  "returns next's promise": (_ctx, next) => next(),
  "mutates the input": async (ctx, next) => {
    ctx.toolInput.text = "changed";
    await next();
  },
  "blocks before next": (ctx) => {
    ctx.block("no");
  },
  "responds after next": async (ctx, next) => {
    await next();
    ctx.respond("other");
  },
  "changes the result after next": async (ctx, next) => {
    await next();
    ctx.toolResult = `[${ctx.toolResult}]`;
  },
  "throws before next": () => {
    throw new Error("boom");
  },
  "rejects after next": async (_ctx, next) => {
    await next();
    throw new Error("late");
  },
  "never calls next": async () => {},
  "calls next twice": async (_ctx, next) => {
    await next();
    await next();
  },
  "calls next without awaiting it": (_ctx, next) => {
    void next();
  },
};

const TOOLS: Record<string, Tool<{ text: string }, unknown>> = {
  "a native promise": defineTool({ name: "echo", execute: async (input: { text: string }) => input.text }),
  "a plain value": defineTool({ name: "echo", execute: (input: { text: string }) => input.text }),
  "a foreign thenable": defineTool({
    name: "echo",
    execute: (input: { text: string }) => ({
      // biome-ignore lint/suspicious/noThenProperty: a tool returning a thenable that is no promise is the point
      then: (ok: (v: unknown) => void) => ok(input.text),
    }),
  }),
  "a rejection": defineTool({
    name: "echo",
    execute: async () => {
      throw new Error("tool failed");
    },
  }),
  "a throw": defineTool({
    name: "echo",
    execute: () => {
      throw new Error("tool threw");
    },
  }),
};

const CLOCKED: Record<string, { options: HookOptions; timing: boolean }> = {
  "a predicate": { options: { tools: () => true }, timing: false },
  "a time limit": { options: { timeoutMs: 60_000 }, timing: false },
  "timing: true": { options: {}, timing: true },
};

function comparable(outcome: ToolCallOutcome): unknown {
  const { callId: _id, ...rest } = outcome;
  return {
    ...rest,
    error: rest.error instanceof Error ? rest.error.message : rest.error,
    trace: rest.trace.map((e) => ({
      ...e,
      durationMs: undefined,
      error: e.error instanceof Error ? e.error.message : e.error,
    })),
  };
}

// The middleware sits between sync hooks on both sides, and inside a second middleware, so that its
// report to the middleware outside and the after-hooks around it are part of what is compared.
async function run(mw: Middleware, tool: Tool<{ text: string }, unknown>, options: HookOptions, timing: boolean) {
  const hooks = new ToolHooks({ timing });
  // Priorities nest them: outer > (outside, first) > subject > inner > innermost.
  hooks.use(
    async function outer(_ctx, next) {
      await next();
    },
    { priority: 20 },
  );
  hooks.after(
    function outside(ctx) {
      return `${ctx.toolResult ?? ""}|out`;
    },
    { priority: 10 },
  );
  hooks.before(function first() {}, { priority: 10 });
  hooks.use(mw as never, { ...options, name: "subject", onError: "continue" });
  hooks.before(function inner() {});
  hooks.after(function innermost() {}, { priority: -10 });
  return comparable(await hooks.invoke(tool, { text: "hi" }));
}

describe("a middleware's run, with and without a clock", () => {
  for (const [what, mw] of Object.entries(MIDDLEWARES)) {
    for (const [returns, tool] of Object.entries(TOOLS)) {
      it(`ends the call alike when the middleware ${what} and the tool returns ${returns}`, async () => {
        const plain = await run(mw, tool, {}, false);
        for (const { options, timing } of Object.values(CLOCKED)) {
          expect(await run(mw, tool, options, timing)).toEqual(plain);
        }
      });
    }
  }

  it("keeps the entries that tell the middleware's own changes from those made inside it", async () => {
    const tool = TOOLS["a native promise"] as Tool<{ text: string }, unknown>;
    expect(await run(MIDDLEWARES["awaits next"] as Middleware, tool, {}, false)).toMatchObject({
      status: "ok",
      result: "hi|out",
      trace: [
        { hook: "first", phase: "before", action: "proceeded" },
        { hook: "inner", phase: "before", action: "proceeded" },
        { hook: "innermost", phase: "after", action: "proceeded" },
        { hook: "subject", phase: "around", action: "proceeded" },
        { hook: "outside", phase: "after", action: "modified-result" },
        { hook: "outer", phase: "around", action: "proceeded" },
      ],
    });
    const changed = await run(MIDDLEWARES["changes the result after next"] as Middleware, tool, {}, false);
    expect(changed).toMatchObject({ result: "[hi]|out" });
    expect((changed as { trace: { hook: string; action: string }[] }).trace[3]).toMatchObject({
      hook: "subject",
      action: "modified-result",
    });
  });
});
