// Tools with an inputSchema: validation before the chain, with zod, valibot and arktype, and hostile validators.
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { type } from "arktype";
import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineTool, InputRejectedError, inputSchemaOf, ToolHooks, toolwareCode } from "./index.js";

/** A hooks instance that records what every hook saw, and the call events. */
function recorded() {
  const hooks = new ToolHooks();
  const seen: unknown[] = [];
  const events: string[] = [];
  hooks.before((ctx) => void seen.push({ before: { ...ctx.toolInput } }));
  hooks.after((ctx) => void seen.push({ after: ctx.toolResult }));
  for (const event of ["call:start", "call:blocked", "call:error", "call:end"] as const) {
    hooks.on(event, () => events.push(event));
  }
  return { hooks, seen, events };
}

const schemas = {
  zod: z.object({ city: z.string().min(1), days: z.number().int().default(3) }),
  valibot: v.object({ city: v.pipe(v.string(), v.minLength(1)), days: v.optional(v.number(), 3) }),
  arktype: type({ city: "string > 0", days: "number.integer = 3" }),
};

describe.each(Object.entries(schemas))("inputSchema with %s", (_vendor, schema) => {
  const make = () => {
    const execute = vi.fn((input: { city: string; days: number }) => `${input.city} for ${input.days} days`);
    return { execute, tool: defineTool({ name: "forecast", inputSchema: schema, execute }) };
  };

  it("hands the schema's output (defaults applied) to the hooks and the tool", async () => {
    const { hooks, seen } = recorded();
    const { tool, execute } = make();
    const outcome = await hooks.invoke(tool, { city: "Paris" } as never);
    expect(outcome).toMatchObject({ status: "ok", result: "Paris for 3 days" });
    expect(execute).toHaveBeenCalledWith(
      { city: "Paris", days: 3 },
      expect.objectContaining({ callId: outcome.callId }),
    );
    expect(seen).toEqual([{ before: { city: "Paris", days: 3 } }, { after: "Paris for 3 days" }]);
  });

  it("ends an invalid call as an error with the schema's issues, before any hook or the tool", async () => {
    const { hooks, seen, events } = recorded();
    const { tool, execute } = make();
    const outcome = await hooks.invoke(tool, { city: 42, days: 1.5 } as never, { callId: "bad-1" });
    expect(outcome.status).toBe("error");
    expect(outcome.callId).toBe("bad-1");
    expect(toolwareCode(outcome.error)).toBe("TOOLWARE_INPUT_REJECTED");
    expect(outcome.error).toBeInstanceOf(InputRejectedError);
    const issues = (outcome.error as InputRejectedError).issues;
    expect(issues.length).toBeGreaterThanOrEqual(1);
    expect(issues.some((i) => JSON.stringify(i.path ?? []).includes("city"))).toBe(true);
    expect(outcome.result).toMatch(
      /^Tool execution failed\. Tool: forecast\. Error: toolware: invalid input: city: \S/,
    );
    expect(outcome.trace).toEqual([]);
    expect(outcome.raw).toBeUndefined();
    expect(execute).not.toHaveBeenCalled();
    expect(seen).toEqual([]);
    expect(events).toEqual(["call:start", "call:error", "call:end"]);
  });
});

describe("inputSchema", () => {
  it("lets hooks rewrite the validated value, and transforms reach the tool", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({
      name: "shout",
      inputSchema: z.object({ text: z.string().transform((s) => s.trim()) }),
      execute: ({ text }) => text.toUpperCase(),
    });
    hooks.before((ctx) => {
      expect(ctx.toolInput).toEqual({ text: "hi" });
      ctx.toolInput.text = `${ctx.toolInput.text}!`;
    });
    expect((await hooks.invoke(tool, { text: "  hi  " })).result).toBe("HI!");
  });

  it("awaits async validators, and the tool runs once they accept", async () => {
    const hooks = new ToolHooks();
    const inputSchema = z.object({ user: z.string() }).refine(async (i) => i.user !== "mallory", "unknown user");
    const tool = defineTool({ name: "greet", inputSchema, execute: ({ user }) => `hello ${user}` });
    expect((await hooks.invoke(tool, { user: "alice" })).result).toBe("hello alice");
    const denied = await hooks.invoke(tool, { user: "mallory" });
    expect(denied.status).toBe("error");
    expect(denied.result).toContain("invalid input: (input): unknown user");
  });

  it("is exposed on the tool, typed, and absent on tools without one and on wrapped tools", () => {
    const inputSchema = z.object({ q: z.string() });
    const tool = defineTool({ name: "s", inputSchema, execute: ({ q }) => q });
    expect(tool.inputSchema).toBe(inputSchema);
    expect(inputSchemaOf(tool)).toBe(inputSchema);
    expect(defineTool({ name: "plain", execute: () => 1 }).inputSchema).toBeUndefined();
    // The wrapped tool validates inside (through invoke): a second schema on it would validate twice.
    expect(new ToolHooks().wrap(tool).inputSchema).toBeUndefined();
  });

  it("validates the calls of a wrapped tool", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({ name: "s", inputSchema: z.object({ q: z.string() }), execute: ({ q }) => q });
    const wrapped = hooks.wrap(tool);
    expect(await wrapped.execute({ q: "ok" })).toBe("ok");
    expect(await wrapped.execute({ q: 1 } as never)).toMatch(/Tool execution failed\. .*invalid input: q: /);
  });

  it("lists at most ten issues, each on one line, then how many more", async () => {
    const hooks = new ToolHooks();
    const inputSchema = z.object(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, z.string()])));
    const tool = defineTool({ name: "many", inputSchema, execute: () => "ran" });
    const { result, error } = await hooks.invoke(tool, {} as never);
    expect((error as InputRejectedError).issues).toHaveLength(12);
    expect(result.split("; ")).toHaveLength(11);
    expect(result).toMatch(/; … and 2 more issues$/);
  });

  it("renders paths like code and strips line breaks and escapes from messages", async () => {
    const hooks = new ToolHooks();
    const issues = [
      { message: "bad\nline\u001b[31m", path: ["items", 0, { key: "odd key" }] },
      { message: "root" },
      { message: 7, path: "not an array" },
      "a bare string issue",
    ];
    const tool = defineTool({ name: "t", inputSchema: fake(() => ({ issues })), execute: () => "ran" });
    const { result } = await hooks.invoke(tool, {});
    expect(result).toBe(
      'Tool execution failed. Tool: t. Error: toolware: invalid input: items[0]["odd key"]: bad line [31m; ' +
        "(input): root; (input): 7; (input): a bare string issue",
    );
  });
});

/** A hand-written Standard Schema whose validate does whatever the test needs. */
function fake(validate: (value: unknown) => unknown): StandardSchemaV1<unknown, Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "test",
      validate: validate as StandardSchemaV1<unknown, Record<string, unknown>>["~standard"]["validate"],
    },
  };
}

describe("hostile validators fail the call, never invoke", () => {
  const cases: [string, (value: unknown) => unknown, string, RegExp][] = [
    [
      "throws",
      () => {
        throw new Error("validator bug");
      },
      "TOOLWARE_SCHEMA_FAILED",
      /inputSchema of tool t threw: validator bug/,
    ],
    [
      "throws a non-error",
      () => {
        throw undefined;
      },
      "TOOLWARE_SCHEMA_FAILED",
      /threw/,
    ],
    ["rejects", () => Promise.reject(new Error("nope")), "TOOLWARE_SCHEMA_FAILED", /rejected: nope/],
    ["returns undefined", () => undefined, "TOOLWARE_SCHEMA_FAILED", /returned undefined instead of \{ value \}/],
    ["returns a string", () => "ok", "TOOLWARE_SCHEMA_FAILED", /returned string/],
    ["returns {}", () => ({}), "TOOLWARE_SCHEMA_FAILED", /neither \{ value \} nor \{ issues \}/],
    ["returns issues that are no array", () => ({ issues: "bad" }), "TOOLWARE_SCHEMA_FAILED", /not an array/],
    ["outputs a string", () => ({ value: "text" }), "TOOLWARE_SCHEMA_FAILED", /gave string as the input/],
    ["outputs null", () => ({ value: null }), "TOOLWARE_SCHEMA_FAILED", /gave null as the input/],
    ["resolves to garbage", async () => 42, "TOOLWARE_SCHEMA_FAILED", /returned number/],
    ["rejects without reason", () => ({ issues: [] }), "TOOLWARE_INPUT_REJECTED", /without an issue/],
    [
      "returns a revoked proxy",
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
      "TOOLWARE_SCHEMA_FAILED",
      /cannot be read/,
    ],
    [
      "returns a thenable whose then throws",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point of the test
        then() {
          throw new Error("then trap");
        },
      }),
      "TOOLWARE_SCHEMA_FAILED",
      /thenable that threw: then trap/,
    ],
  ];
  it.each(cases)("a validator that %s", async (_what, validate, code, message) => {
    const execute = vi.fn(() => "ran");
    const hooks = new ToolHooks();
    const before = vi.fn();
    hooks.before(before);
    const outcome = await hooks.invoke(defineTool({ name: "t", inputSchema: fake(validate), execute }), {});
    expect(outcome.status).toBe("error");
    expect(toolwareCode(outcome.error)).toBe(code);
    expect(outcome.result).toMatch(message);
    expect(execute).not.toHaveBeenCalled();
    expect(before).not.toHaveBeenCalled();
  });

  it("a validator that never settles holds the call until the call's signal aborts", async () => {
    const hooks = new ToolHooks();
    const execute = vi.fn(() => "ran");
    const tool = defineTool({ name: "t", inputSchema: fake(() => new Promise(() => {})), execute });
    const controller = new AbortController();
    const pending = hooks.invoke(tool, {}, { signal: controller.signal });
    controller.abort(new Error("user stopped"));
    const outcome = await pending;
    expect(outcome).toMatchObject({ status: "error", error: new Error("user stopped") });
    expect(execute).not.toHaveBeenCalled();
    const aborted = await hooks.invoke(tool, {}, { signal: AbortSignal.abort() });
    expect(aborted.status).toBe("error");
  });

  // What a validator may return: anything, and near misses of the two valid shapes.
  const result = fc.oneof(
    fc.anything(),
    fc.record({ value: fc.anything() }),
    fc.record({ value: fc.dictionary(fc.string(), fc.anything()) }),
    fc.record({ issues: fc.anything() }, { requiredKeys: [] }),
    fc.record({ issues: fc.array(fc.record({ message: fc.anything(), path: fc.anything() })) }),
  );

  it("property: any input through any schema outcome resolves, and the tool runs only on accepted objects", async () => {
    const hooks = new ToolHooks();
    await fc.assert(
      fc.asyncProperty(result, fc.boolean(), fc.dictionary(fc.string(), fc.anything()), async (r, async, input) => {
        const execute = vi.fn(() => "ran");
        const tool = defineTool({ name: "t", inputSchema: fake(() => (async ? Promise.resolve(r) : r)), execute });
        const outcome = await hooks.invoke(tool, input);
        const accepted =
          typeof r === "object" &&
          r !== null &&
          !Array.isArray(r) &&
          ((r as { issues?: unknown }).issues ?? false) === false &&
          "value" in r &&
          typeof (r as { value: unknown }).value === "object" &&
          (r as { value: unknown }).value !== null;
        expect(outcome.status).toBe(accepted ? "ok" : "error");
        expect(execute).toHaveBeenCalledTimes(accepted ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });

  it("property: random inputs through a zod schema never make invoke reject", async () => {
    const hooks = new ToolHooks();
    const tool = defineTool({
      name: "t",
      inputSchema: z.object({ a: z.string(), b: z.array(z.number()).optional() }),
      execute: ({ a }) => a,
    });
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.anything()), async (input) => {
        const outcome = await hooks.invoke(tool, input as never);
        expect(["ok", "error"]).toContain(outcome.status);
        if (outcome.status === "error") expect(toolwareCode(outcome.error)).toBe("TOOLWARE_INPUT_REJECTED");
      }),
      { numRuns: 300 },
    );
  });
});
