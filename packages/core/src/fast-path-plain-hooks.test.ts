import { describe, expect, it } from "vitest";
import { defineTool, type HookOptions, type ToolCallHookContext, type ToolCallOutcome, ToolHooks } from "./index.js";

// A sync hook with no predicate and no time limit takes the runners' fast path; one with a predicate
// (that always passes) or a time limit takes the general one. Whatever the hook does, both must end
// the call alike: same status, result, error and trace, entry by entry.

const echo = defineTool({ name: "echo", execute: async (input: { text: string }) => input.text });

type Body = (ctx: ToolCallHookContext<{ text: string }, unknown>) => unknown;

const BEFORE: Record<string, Body> = {
  nothing: () => undefined,
  "mutates the input": (ctx) => {
    ctx.toolInput.text = "changed";
  },
  "returns false": () => false,
  blocks: (ctx) => {
    ctx.block("no");
  },
  responds: (ctx) => {
    ctx.respond("canned");
  },
  "blocks and returns undefined after mutating": (ctx) => {
    ctx.toolInput.text = "x";
    ctx.block();
  },
  throws: () => {
    throw new Error("boom");
  },
  "returns a value": () => 42,
};

const AFTER: Record<string, Body> = {
  nothing: () => undefined,
  "assigns toolResult": (ctx) => {
    ctx.toolResult = `[${ctx.toolResult}]`;
  },
  "returns a string": (ctx) => `${ctx.toolResult}!`,
  "returns an object": () => ({ not: "a string" }),
  blocks: (ctx) => {
    ctx.block("late");
  },
  responds: (ctx) => {
    ctx.respond("other");
  },
  throws: () => {
    throw new Error("boom");
  },
  "returns null": () => null,
};

const GENERAL: Record<string, HookOptions> = {
  "a predicate": { tools: () => true },
  "a time limit": { timeoutMs: 60_000 },
};

function comparable(outcome: ToolCallOutcome): unknown {
  const { callId: _id, ...rest } = outcome;
  return { ...rest, error: rest.error instanceof Error ? rest.error.message : rest.error };
}

async function run(kind: "before" | "after", body: Body, options: HookOptions, name: string): Promise<unknown> {
  const hooks = new ToolHooks();
  hooks.before(() => undefined, { name: "first" });
  if (kind === "before") hooks.before(body as Parameters<ToolHooks["before"]>[0], { ...options, name });
  else hooks.after(body as Parameters<ToolHooks["after"]>[0], { ...options, name });
  hooks.after(() => undefined, { name: "last" });
  return comparable(await hooks.invoke(echo, { text: "hi" }));
}

describe("plain sync hooks end a call as the general path does", () => {
  for (const [kind, bodies] of [
    ["before", BEFORE],
    ["after", AFTER],
  ] as const) {
    for (const [what, body] of Object.entries(bodies)) {
      for (const [general, options] of Object.entries(GENERAL)) {
        it(`${kind}-hook that ${what}, against one with ${general}`, async () => {
          const fast = await run(kind, body, {}, "h");
          const slow = await run(kind, body, options, "h");
          expect(fast).toEqual(slow);
        });
      }
    }
  }

  it("records the action of each plain hook", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => undefined, { name: "a" });
    hooks.before(
      (ctx) => {
        ctx.toolInput.text = "x";
      },
      { name: "b" },
    );
    hooks.after(
      (ctx) => {
        ctx.toolResult = "y";
      },
      { name: "c" },
    );
    hooks.after(() => undefined, { name: "d" });
    const outcome = await hooks.invoke(echo, { text: "hi" });
    expect(outcome.result).toBe("y");
    expect(outcome.trace.map((t) => [t.hook, t.phase, t.action])).toEqual([
      ["a", "before", "proceeded"],
      ["b", "before", "modified-input"],
      ["c", "after", "modified-result"],
      ["d", "after", "proceeded"],
    ]);
  });

  it("shares one frozen entry per hook and action, whichever path recorded it", async () => {
    // A hook that returns a value (not a thenable) leaves the fast path for the general one; both
    // must push the same frozen entry, call after call.
    let value: unknown;
    const hooks = new ToolHooks();
    const returnsValue: Body = () => value;
    const returnsNull: Body = () => (value === undefined ? undefined : null);
    hooks.before(returnsValue as Parameters<ToolHooks["before"]>[0], { name: "b" });
    hooks.after(returnsNull as Parameters<ToolHooks["after"]>[0], { name: "a" });
    const fast = await hooks.invoke(echo, { text: "hi" });
    value = 42;
    const general = await hooks.invoke(echo, { text: "hi" });
    value = undefined;
    const again = await hooks.invoke(echo, { text: "hi" });
    expect(fast.trace.map((t) => [t.hook, t.phase, t.action])).toEqual([
      ["b", "before", "proceeded"],
      ["a", "after", "proceeded"],
    ]);
    for (const i of [0, 1]) {
      expect(Object.isFrozen(fast.trace[i])).toBe(true);
      expect(general.trace[i]).toBe(fast.trace[i]);
      expect(again.trace[i]).toBe(fast.trace[i]);
    }
    expect(general.trace).not.toBe(fast.trace);
  });
});
