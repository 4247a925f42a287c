// Results that are not text: a tool result that cannot be formatted, an after-hook that returns
// something else than a string. Neither is silent, and neither is mistaken for a failed tool.
import { describe, expect, it } from "vitest";
import { defineTool, ToolHooks, type ToolHooksEvents, ToolwareError, toolwareCode } from "./index.js";

function cyclic(): Record<string, unknown> {
  const o: Record<string, unknown> = { id: 7 };
  o.self = o;
  return o;
}

describe("a tool result that cannot be formatted", () => {
  it("says the tool ran, keeps raw, has its own code and trace action, and emits call:error", async () => {
    const hooks = new ToolHooks();
    const errors: ToolHooksEvents["call:error"][] = [];
    hooks.on("call:error", (e) => void errors.push(e));
    const value = cyclic();
    let runs = 0;
    const tool = defineTool({
      name: "create_user",
      execute: () => {
        runs++;
        return value;
      },
    });
    const outcome = await hooks.invoke(tool, {});
    expect(runs).toBe(1);
    expect(outcome).toMatchObject({ status: "error", raw: value, reason: undefined });
    expect(outcome.result).toMatch(
      /^Tool ran but its result could not be formatted\. Tool: create_user\. Error: Converting circular structure/,
    );
    expect(outcome.error).toBeInstanceOf(ToolwareError);
    expect(toolwareCode(outcome.error)).toBe("TOOLWARE_UNSERIALIZABLE_RESULT");
    expect((outcome.error as Error).cause).toBeInstanceOf(TypeError);
    expect(outcome.trace).toEqual([
      expect.objectContaining({ hook: "create_user", layer: "global", kind: "tool", phase: "around" }),
    ]);
    expect(outcome.trace[0]).toMatchObject({ action: "format-failed", error: outcome.error });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.outcome).toBe(outcome);
  });

  it("covers a throwing toJSON and a proxy whose keys cannot be listed", async () => {
    const hooks = new ToolHooks();
    const values = [
      {
        toJSON: () => {
          throw new Error("no JSON today");
        },
      },
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error("no keys");
          },
        },
      ),
    ];
    for (const value of values) {
      const outcome = await hooks.invoke(defineTool({ name: "odd", execute: () => value }), {});
      expect(toolwareCode(outcome.error)).toBe("TOOLWARE_UNSERIALIZABLE_RESULT");
      expect(outcome.result).toMatch(
        /^Tool ran but its result could not be formatted\. Tool: odd\. Error: no (JSON|keys)/,
      );
      expect(outcome.raw).toBe(value);
    }
  });

  it("catches a formatResult that returns something else than a string, or throws", async () => {
    const hooks = new ToolHooks();
    const returns = [42, { text: "x" }, undefined, null];
    for (const returned of returns) {
      const tool = defineTool({ name: "rows", execute: () => [1, 2], formatResult: () => returned as never });
      const outcome = await hooks.invoke(tool, {});
      const what = returned === null ? "null" : typeof returned;
      expect(outcome).toMatchObject({ status: "error", raw: [1, 2] });
      expect(typeof outcome.result).toBe("string");
      expect(outcome.result).toBe(
        `Tool ran but its result could not be formatted. Tool: rows. Error: toolware: formatResult of tool rows returned ${what} instead of a string`,
      );
      expect(toolwareCode(outcome.error)).toBe("TOOLWARE_FORMAT_RESULT_FAILED");
    }
    const cause = new Error("template missing");
    const throwing = defineTool({
      name: "rows",
      execute: () => [1],
      formatResult: () => {
        throw cause;
      },
    });
    const outcome = await hooks.invoke(throwing, {});
    expect(outcome.result).toBe("Tool ran but its result could not be formatted. Tool: rows. Error: template missing");
    expect(outcome).toMatchObject({ error: { code: "TOOLWARE_FORMAT_RESULT_FAILED", cause } });
  });

  it("lets after-hooks repair it: respond() makes the call ok", async () => {
    const hooks = new ToolHooks();
    hooks.after((ctx) => {
      if (toolwareCode(ctx.error) === "TOOLWARE_UNSERIALIZABLE_RESULT")
        ctx.respond(`user ${(ctx.rawToolResult as { id: number }).id}`);
    });
    const outcome = await hooks.invoke(defineTool({ name: "create_user", execute: () => cyclic() }), {});
    expect(outcome).toMatchObject({ status: "ok", result: "user 7" });
  });

  it("makes respond() fail (and change nothing) when the value's formatResult returns no string", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    // Strings skip formatResult: the tool's own result is fine, a substitute number is not.
    const tool = defineTool({ name: "t", execute: (): string | number => "ran", formatResult: () => 5 as never });
    hooks.before((ctx) => ctx.respond(2), { name: "cacheHit" });
    const outcome = await hooks.invoke(tool, {});
    expect(outcome).toMatchObject({ status: "ok", result: "ran" });
    expect(outcome.trace[0]).toMatchObject({ action: "failed", error: { code: "TOOLWARE_FORMAT_RESULT_FAILED" } });
  });
});

describe("an after-hook that returns something else than a string", () => {
  it("keeps the result, records it every time, and emits hook:ignored-return once per registration", async () => {
    const hooks = new ToolHooks();
    const events: ToolHooksEvents["hook:ignored-return"][] = [];
    hooks.on("hook:ignored-return", (e) => void events.push(e));
    const redactor = (): unknown => ({ redacted: true });
    hooks.after(redactor as () => undefined, { name: "redactor" });
    hooks.after((async (): Promise<unknown> => [1]) as () => Promise<undefined>, { name: "asyncRedactor" });
    const tool = defineTool({ name: "read", execute: () => "secret" });
    for (let i = 0; i < 3; i++) {
      const outcome = await hooks.invoke(tool, {});
      expect(outcome).toMatchObject({ status: "ok", result: "secret" });
      expect(outcome.trace.map((t) => [t.hook, t.action, t.reason])).toEqual([
        ["redactor", "ignored-return", "hook redactor returned object instead of a string; the result is unchanged"],
        [
          "asyncRedactor",
          "ignored-return",
          "hook asyncRedactor returned object instead of a string; the result is unchanged",
        ],
      ]);
    }
    expect(events.map((e) => [e.hook.name, e.value])).toEqual([
      ["redactor", { redacted: true }],
      ["asyncRedactor", [1]],
    ]);
    // Another registration of the same function is another hook: reported on its own.
    hooks.after(redactor as () => undefined, { name: "redactorAgain", tools: "read" });
    await hooks.invoke(tool, {});
    expect(events.map((e) => e.hook.name)).toEqual(["redactor", "asyncRedactor", "redactorAgain"]);
  });

  it("treats undefined and null as returning nothing, and a string as the new result", async () => {
    const hooks = new ToolHooks();
    let events = 0;
    hooks.on("hook:ignored-return", () => void events++);
    hooks.after(() => null as never, { name: "nothing" });
    hooks.after(() => undefined, { name: "alsoNothing" });
    hooks.after(() => "", { name: "empty" });
    const outcome = await hooks.invoke(defineTool({ name: "t", execute: () => "x" }), {});
    expect(outcome.result).toBe("");
    expect(outcome.trace.map((t) => t.action)).toEqual(["proceeded", "proceeded", "modified-result"]);
    expect(events).toBe(0);
  });
});
