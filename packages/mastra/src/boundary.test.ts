import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { retry } from "@toolware/packs/retry";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mastraCall, mastraToolware } from "./index.js";

// Mastra calls these hooks; so may anyone: they take hostile values without throwing, and fail closed.
const before = (tw: ReturnType<typeof mastraToolware>, hc: unknown) =>
  (tw.hooks.beforeToolCall as (hc: unknown) => Promise<unknown>)(hc);
const after = (tw: ReturnType<typeof mastraToolware>, hc: unknown) =>
  (tw.hooks.afterToolCall as (hc: unknown) => Promise<void>)(hc);

describe("mastraToolware(): options are checked eagerly", () => {
  it("refuses a typo with a hint, wrong types, and anything but a ToolHooks", () => {
    const hooks = new ToolHooks();
    expect(() => mastraToolware(hooks, { bnd: () => undefined } as never)).toThrow(
      /unknown key `bnd` \(did you mean `bind`\?\)/,
    );
    expect(() => mastraToolware(hooks, { tools: { send: { destrutive: true } } } as never)).toThrow(
      expect.objectContaining({ code: "TOOLWARE_UNKNOWN_OPTION" }),
    );
    expect(() => mastraToolware(hooks, { bind: 1 } as never)).toThrow(/`bind` must be a function/);
    expect(() => mastraToolware(hooks, { onOutcome: "x" } as never)).toThrow(/`onOutcome` must be a function/);
    expect(() => mastraToolware(hooks, { tools: [] } as never)).toThrow(/`tools` must be an object/);
    expect(() => mastraToolware(hooks, { tools: { s: null } } as never)).toThrow(/`tools.s` must be/);
    expect(() => mastraToolware(hooks, { tools: { s: { destructive: "yes" } } } as never)).toThrow(/boolean/);
    expect(() => mastraToolware(hooks, { tools: { s: { tags: [""] } } } as never)).toThrow(/non-empty strings/);
    expect(() => mastraToolware(hooks, null as never)).toThrow(/must be an object/);
    expect(() => mastraToolware({} as never)).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }));
  });

  it("with(): your hooks only, by their exact names, never the chain's own", () => {
    const tw = mastraToolware(new ToolHooks());
    expect(() => tw.with({ beforeToolcall: () => undefined } as never)).toThrow(/unknown key `beforeToolcall`/);
    expect(() => tw.with({ afterToolCall: 1 } as never)).toThrow(/must be a function/);
    expect(() => tw.with(null as never)).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }));
    expect(() => tw.with(tw.hooks)).toThrow(expect.objectContaining({ code: "TOOLWARE_MASTRA_ALREADY_GUARDED" }));
    const other = mastraToolware(new ToolHooks());
    expect(() => tw.with(other.hooks)).toThrow(expect.objectContaining({ code: "TOOLWARE_MASTRA_ALREADY_GUARDED" }));
  });

  it("agent(): refuses what is not a Mastra agent", () => {
    const tw = mastraToolware(new ToolHooks());
    expect(() => tw.agent({} as never)).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }));
  });
});

describe("the hooks at the call boundary", () => {
  it("arguments that are not an object end the call: no hook, no tool, the model reads why", async () => {
    const hooks = new ToolHooks();
    const ran: unknown[] = [];
    hooks.before((ctx) => void ran.push(ctx.toolInput));
    const outcomes: ToolCallOutcome[] = [];
    const tw = mastraToolware(hooks, { onOutcome: (o) => outcomes.push(o) });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    for (const input of ["hello", [1, 2], 42, null, undefined, revoked.proxy]) {
      const skip = await before(tw, { toolName: "send", input, context: { toolCallId: "c1" } });
      expect(skip).toMatchObject({ proceed: false, output: expect.stringContaining("(TOOLWARE_INVALID_INPUT)") });
    }
    expect(ran).toEqual([]);
    expect(outcomes.map((o) => [o.status, o.callId])).toEqual(Array(6).fill(["error", "c1"]));
  });

  it("a hook context that cannot be read fails closed instead of throwing into Mastra", async () => {
    const tw = mastraToolware(new ToolHooks({ onListenerError: () => {} }));
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
      },
    );
    for (const hc of [null, 42, {}, hostile, { toolName: "", input: {} }]) {
      await expect(before(tw, hc)).resolves.toMatchObject({ proceed: false });
    }
    await expect(after(tw, hostile)).resolves.toBeUndefined();
    await expect(after(tw, { context: {} })).resolves.toBeUndefined();
  });

  it("the tool runs once: the chain waits for Mastra's result; a second run (a retry) is refused", async () => {
    const hooks = new ToolHooks();
    const seen: unknown[] = [];
    hooks.after((ctx) => void seen.push([ctx.callId, mastraCall(ctx)?.callId]));
    const outcomes: ToolCallOutcome[] = [];
    const tw = mastraToolware(hooks, { onOutcome: (o) => outcomes.push(o) });
    const context = { toolCallId: "c1" };
    const input = { to: "ann" };
    await expect(before(tw, { toolName: "send", input, context })).resolves.toBeUndefined();
    await after(tw, { toolName: "send", input, context, output: { ok: 1 } });
    expect(seen).toEqual([["c1", "c1"]]);
    expect(outcomes.map((o) => [o.status, o.raw])).toEqual([["ok", { ok: 1 }]]);
    // The call is over: a late afterToolCall for it changes nothing.
    await after(tw, { toolName: "send", input, context, output: "late" });
    expect(outcomes).toHaveLength(1);
    // A retry after the tool failed: Mastra ran it once; the chain's second attempt is refused.
    hooks.use(retry({ retries: 1, minDelayMs: 0, jitter: "none" }));
    const second = { toolCallId: "c2" };
    await expect(before(tw, { toolName: "send", input: { to: "bob" }, context: second })).resolves.toBeUndefined();
    await after(tw, { toolName: "send", input: { to: "bob" }, context: second, error: new Error("smtp down") });
    expect(outcomes[1]?.status).toBe("error");
    expect(outcomes[1]?.error).toMatchObject({ code: "TOOLWARE_MASTRA_SINGLE_RUN" });
  });

  it("any argument object reaches the tool unchanged, or the call ends with a refusal (fast-check)", async () => {
    const tw = mastraToolware(new ToolHooks({ onListenerError: () => {} }));
    await fc.assert(
      fc.asyncProperty(fc.anything(), async (input) => {
        const context = { toolCallId: "c" };
        const result = await before(tw, { toolName: "t", input, context });
        if (result === undefined) await after(tw, { toolName: "t", input, context, output: 1 });
        else expect(result).toMatchObject({ proceed: false });
      }),
      { numRuns: 200 },
    );
  });
});
