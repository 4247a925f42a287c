// The adapter kit's bindings: the framework's call id and per-call context, through the public API.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Agent, defineTool, type FrameworkCall, type ToolCallHookContext, ToolHooks, toolwareCode } from "./index.js";

const echo = defineTool({ name: "echo", execute: (input: { text?: string }, { callId }) => `${callId}:${input.text}` });

async function rejection(promise: Promise<unknown>): Promise<{ code: string | undefined; message: string }> {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TypeError);
  return { code: toolwareCode(error), message: (error as Error).message };
}

describe("bindings.callId", () => {
  it("is the call's id in the context, the outcome, the tool's options, events and after-hooks", async () => {
    const hooks = new ToolHooks();
    const seen: string[] = [];
    hooks.before((ctx) => void seen.push(`before:${ctx.callId}`));
    hooks.after((ctx) => void seen.push(`after:${ctx.callId}`));
    hooks.on("call:start", ({ ctx }) => seen.push(`start:${ctx.callId}`));
    hooks.on("call:end", ({ ctx, outcome }) => seen.push(`end:${ctx.callId}/${outcome.callId}`));
    const outcome = await hooks.invoke(echo, { text: "hi" }, { callId: "call_abc123" });
    expect(outcome).toMatchObject({ status: "ok", callId: "call_abc123", result: "call_abc123:hi" });
    expect(seen).toEqual([
      "start:call_abc123",
      "before:call_abc123",
      "after:call_abc123",
      "end:call_abc123/call_abc123",
    ]);
  });

  it("reaches call:blocked and call:error events and the outcome of blocked and failed calls", async () => {
    const hooks = new ToolHooks();
    const events: string[] = [];
    hooks.on("call:blocked", ({ ctx, outcome }) => events.push(`blocked:${ctx.callId}:${outcome.callId}`));
    hooks.on("call:error", ({ ctx, outcome }) => events.push(`error:${ctx.callId}:${outcome?.callId}`));
    hooks.before((ctx) => ctx.toolInput.text !== "no");
    const boom = defineTool({
      name: "boom",
      execute: () => {
        throw new Error("kaboom");
      },
    });
    expect((await hooks.invoke(echo, { text: "no" }, { callId: "b-1" })).callId).toBe("b-1");
    expect((await hooks.invoke(boom, {}, { callId: "e-1" })).callId).toBe("e-1");
    expect(events).toEqual(["blocked:b-1:b-1", "error:e-1:e-1"]);
  });

  it("is generated when absent, unique per call, and independent between concurrent calls", async () => {
    const hooks = new ToolHooks();
    const outcomes = await Promise.all([
      hooks.invoke(echo, {}, { callId: "a" }),
      hooks.invoke(echo, {}),
      hooks.invoke(echo, {}, { callId: "b" }),
      hooks.invoke(echo, {}),
    ]);
    const ids = outcomes.map((o) => o.callId);
    expect(ids[0]).toBe("a");
    expect(ids[2]).toBe("b");
    expect(new Set(ids).size).toBe(4);
    expect(ids[1]).toMatch(/^[a-z0-9]+-[a-z0-9]{2,}$/);
  });

  it("refuses ids that are not non-empty printable strings of at most 256 characters", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn(() => "ran");
    const tool = defineTool({ name: "t", execute });
    const cases: [unknown, RegExp][] = [
      ["", /bindings\.callId must be a non-empty string/],
      [42, /bindings\.callId must be a non-empty string .*got 42/],
      [null, /bindings\.callId must be a non-empty string/],
      [{ id: "x" }, /bindings\.callId must be a non-empty string/],
      ["x".repeat(257), /bindings\.callId is 257 characters long; at most 256/],
      ["a\nb", /control or invisible characters/],
      ["a\u001b[31mb", /control or invisible characters/],
      ["a\u202eb", /control or invisible characters/],
      ["a\u2028b", /control or invisible characters/],
    ];
    for (const [callId, message] of cases) {
      const error = await rejection(hooks.invoke(tool, {}, { callId } as never));
      expect(error).toEqual({ code: "TOOLWARE_INVALID_BINDINGS", message: expect.stringMatching(message) });
    }
    expect((await hooks.invoke(tool, {}, { callId: "x".repeat(256) })).callId).toHaveLength(256);
    expect((await hooks.invoke(tool, {}, { callId: "toolu_01 Ünïcode-🔥" })).callId).toBe("toolu_01 Ünïcode-🔥");
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it("points the names frameworks use to callId and framework", async () => {
    const hooks = new ToolHooks();
    expect(await rejection(hooks.invoke(echo, {}, { toolCallId: "x" } as never))).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/unknown binding `toolCallId`: did you mean `callId`\?/),
    });
    expect((await rejection(hooks.invoke(echo, {}, { context: {} } as never))).message).toMatch(
      /\{ framework: \{ name, context \} \}/,
    );
  });

  it("is refused by wrap(), where every call would share it", () => {
    const hooks = new ToolHooks();
    let error: unknown;
    try {
      hooks.wrap(echo, { callId: "fixed" });
    } catch (e) {
      error = e;
    }
    expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_BINDINGS");
    expect((error as Error).message).toMatch(/give it to invoke\(\), not to wrap\(\)/);
  });

  it("never lets a random value past the check unless it is a valid id", async () => {
    const hooks = new ToolHooks();
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 300 }), fc.anything()), async (callId) => {
        const valid =
          typeof callId === "string" &&
          callId !== "" &&
          callId.length <= 256 &&
          !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(callId);
        const settled = await hooks.invoke(echo, {}, { callId } as never).then(
          (outcome) => ({ id: outcome.callId }),
          (error: unknown) => ({ code: toolwareCode(error) }),
        );
        if (callId === undefined) expect(settled).toHaveProperty("id");
        else expect(settled).toEqual(valid ? { id: callId } : { code: "TOOLWARE_INVALID_BINDINGS" });
      }),
      { numRuns: 300 },
    );
  });
});

describe("bindings.framework", () => {
  it("is visible to every hook as ctx.framework, and undefined for calls from no adapter", async () => {
    const hooks = new ToolHooks();
    const options = { toolCallId: "c1", messages: [{ role: "user", content: "hi" }] };
    const seen: (FrameworkCall | undefined)[] = [];
    hooks.before((ctx) => void seen.push(ctx.framework));
    hooks.use(async (ctx, next) => {
      seen.push(ctx.framework);
      await next();
    });
    hooks.after((ctx) => void seen.push(ctx.framework));
    await hooks.invoke(echo, {}, { framework: { name: "ai-sdk", context: options }, callId: "c1" });
    expect(seen).toHaveLength(3);
    for (const framework of seen) expect(framework).toEqual({ name: "ai-sdk", context: options });
    // The context is the framework's own object, not a copy: adapters' readers return it as it is.
    expect(seen[0]?.context).toBe(options);
    seen.length = 0;
    await hooks.invoke(echo, {});
    expect(seen).toEqual([undefined, undefined, undefined]);
  });

  it("lets a hook policy read the framework's context through a typed reader", async () => {
    interface ToyContext {
      readonly user: string;
    }
    // What each adapter exports: a reader that checks the name before trusting the shape.
    const toyCall = (ctx: ToolCallHookContext): ToyContext | undefined =>
      ctx.framework?.name === "toy" ? (ctx.framework.context as ToyContext) : undefined;
    const hooks = new ToolHooks();
    hooks.before((ctx) => toyCall(ctx)?.user === "admin");
    const toy = (user: string) => ({ framework: { name: "toy", context: { user } } });
    expect((await hooks.invoke(echo, {}, toy("admin"))).status).toBe("ok");
    expect((await hooks.invoke(echo, {}, toy("guest"))).status).toBe("blocked");
    expect((await hooks.invoke(echo, {}, { framework: { name: "other", context: { user: "admin" } } })).status).toBe(
      "blocked",
    );
  });

  it("is read once: a getter cannot show one framework to the check and another to the hooks", async () => {
    const hooks = new ToolHooks();
    let reads = 0;
    const framework = {
      get name() {
        reads++;
        return reads === 1 ? "ai-sdk" : 42;
      },
      context: undefined,
    };
    const names: unknown[] = [];
    hooks.before((ctx) => void names.push(ctx.framework?.name, ctx.framework?.name));
    await hooks.invoke(echo, {}, { framework } as never);
    expect(names).toEqual(["ai-sdk", "ai-sdk"]);
    expect(reads).toBe(1);
  });

  it("works with wrap() too, for every call of the wrapped tool", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "a" });
    const names: unknown[] = [];
    hooks.before((ctx) => void names.push(ctx.framework?.name));
    const wrapped = hooks.wrap(echo, { agent, framework: { name: "toy", context: 1 } });
    await wrapped.execute({});
    await wrapped.execute({}, { signal: new AbortController().signal });
    expect(names).toEqual(["toy", "toy"]);
  });

  it("refuses what is not { name, context } with a name", async () => {
    const hooks = new ToolHooks();
    const cases: [unknown, string, RegExp][] = [
      ["ai-sdk", "TOOLWARE_INVALID_BINDINGS", /bindings\.framework must be a plain object \{ name, context \}/],
      [null, "TOOLWARE_INVALID_BINDINGS", /bindings\.framework must be a plain object/],
      [[], "TOOLWARE_INVALID_BINDINGS", /bindings\.framework must be a plain object/],
      [new Map(), "TOOLWARE_INVALID_BINDINGS", /bindings\.framework must be a plain object/],
      [{ context: {} }, "TOOLWARE_INVALID_BINDINGS", /bindings\.framework\.name must be the adapter's name/],
      [{ name: "" }, "TOOLWARE_INVALID_BINDINGS", /bindings\.framework\.name/],
      [{ name: 7 }, "TOOLWARE_INVALID_BINDINGS", /bindings\.framework\.name/],
      [{ name: "a\nb" }, "TOOLWARE_INVALID_BINDINGS", /bindings\.framework\.name/],
      [{ name: "x".repeat(65) }, "TOOLWARE_INVALID_BINDINGS", /at most 64 characters/],
      [{ name: "ai", ctx: {} }, "TOOLWARE_UNKNOWN_OPTION", /unknown bindings\.framework key `ctx`.*context/],
      [
        new Proxy(
          {},
          {
            getPrototypeOf() {
              throw new Error("trap");
            },
          },
        ),
        "TOOLWARE_INVALID_BINDINGS",
        /must be a plain object/,
      ],
    ];
    for (const [framework, code, message] of cases) {
      expect(await rejection(hooks.invoke(echo, {}, { framework } as never))).toEqual({
        code,
        message: expect.stringMatching(message),
      });
    }
    expect((await hooks.invoke(echo, {}, { framework: { name: "no-context" } as FrameworkCall })).status).toBe("ok");
  });
});
