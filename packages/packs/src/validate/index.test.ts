import type { StandardSchemaV1 } from "@standard-schema/spec";
import { defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { formatIssues, formatPath, validate } from "./index.js";

const received: unknown[] = [];
const search = defineTool({
  name: "web_search",
  execute: (input: Record<string, unknown>) => {
    received.push(input);
    return "results";
  },
});
const other = defineTool({ name: "read_file", execute: () => "content" });

afterEach(() => {
  received.length = 0;
});

const zodSearch = z.object({ query: z.string().min(3), limit: z.coerce.number().int().max(50).default(5) });
const valibotSearch = v.object({
  query: v.pipe(v.string(), v.minLength(3)),
  limit: v.optional(v.pipe(v.unknown(), v.transform(Number), v.number(), v.maxValue(50)), 5),
});

function custom(validateFn: (value: unknown) => unknown): StandardSchemaV1 {
  return {
    "~standard": { version: 1, vendor: "test", validate: validateFn as StandardSchemaV1["~standard"]["validate"] },
  };
}

describe.each([
  ["zod 4", zodSearch],
  ["valibot 1", valibotSearch],
])("validate with %s", (_vendor, schema) => {
  it("writes the validated, coerced value back into the same input object", async () => {
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: schema } }));
    const input: Record<string, unknown> = { query: "toolware", limit: "7", debug: true };
    const out = await hooks.invoke(search, input);
    expect(out.status).toBe("ok");
    expect(received[0]).toBe(input);
    expect(input).toEqual({ query: "toolware", limit: 7 });
    const defaults: Record<string, unknown> = { query: "toolware" };
    await hooks.invoke(search, defaults);
    expect(defaults).toEqual({ query: "toolware", limit: 5 });
  });

  it("blocks an invalid input with a reason listing paths and messages", async () => {
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: schema } }));
    const out = await hooks.invoke(search, { query: "ai", limit: 500 });
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/^invalid input for web_search: query: .+; limit: .+$/);
    expect(received).toEqual([]);
  });
});

describe("validate: behaviour", () => {
  it("reports nested paths and caps the list of issues", async () => {
    const schema = z.object({ items: z.array(z.object({ name: z.string() })), "odd key": z.number() });
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: schema }, maxIssues: 2 }));
    const out = await hooks.invoke(search, { items: [{ name: 1 }, { name: 2 }, {}] });
    expect(out.reason).toMatch(
      /^invalid input for web_search: items\[0\]\.name: .+; items\[1\]\.name: .+; … and 2 more issues$/,
    );
  });

  it("leaves tools without a schema alone, unless a schema is required", async () => {
    const lenient = new ToolHooks();
    lenient.use(validate({ schemas: { "Web Search": zodSearch } }));
    expect((await lenient.invoke(other, {})).status).toBe("ok");
    expect((await lenient.invoke(search, { query: "x" })).status).toBe("blocked");
    const strict = new ToolHooks();
    strict.use(validate({ schemas: { web_search: zodSearch }, requireSchema: true }));
    expect((await strict.invoke(other, {})).reason).toBe("no input schema is registered for read_file");
  });

  it("reports an unchanged input as unchanged, and writeBack: false leaves it alone", async () => {
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: zodSearch } }));
    const same = await hooks.invoke(search, { query: "toolware", limit: 5 });
    expect(same.trace.map((t) => t.action)).toEqual(["proceeded"]);
    const changed = await hooks.invoke(search, { query: "toolware" });
    expect(changed.trace.map((t) => t.action)).toEqual(["modified-input"]);
    const readOnly = new ToolHooks();
    readOnly.use(validate({ schemas: { web_search: zodSearch }, writeBack: false }));
    const input = { query: "toolware", limit: "7" };
    await readOnly.invoke(search, input);
    expect(input).toEqual({ query: "toolware", limit: "7" });
  });

  it("supports async schemas", async () => {
    const schema = custom(async (value) => {
      await Promise.resolve();
      return (value as { ok?: boolean }).ok
        ? { value: { ok: true, checked: true } }
        : { issues: [{ message: "not ok" }] };
    });
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: schema } }));
    const input = { ok: true };
    expect((await hooks.invoke(search, input)).status).toBe("ok");
    expect(input).toEqual({ ok: true, checked: true });
    expect((await hooks.invoke(search, {})).reason).toBe("invalid input for web_search: (input): not ok");
  });

  it("fails closed on schemas that throw, return nothing, or produce a non-object", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    hooks.use(
      validate({
        schemas: {
          a: custom(() => {
            throw new Error("schema bug");
          }),
          b: custom(() => null),
          c: z.object({ q: z.string() }).transform((o) => [o.q]),
          d: custom(() => ({ value: "text" })),
        },
      }),
    );
    for (const name of ["a", "b", "c", "d"]) {
      const tool = defineTool({ name, execute: () => "ran" });
      const out = await hooks.invoke(tool, { q: "x" });
      expect(out.status, name).toBe("blocked");
      expect(out.raw).toBeUndefined();
    }
  });

  it("does not let a __proto__ key through to the tool or change its prototype", async () => {
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: zodSearch } }));
    const input = JSON.parse('{"query":"toolware","__proto__":{"admin":true}}') as Record<string, unknown>;
    expect((await hooks.invoke(search, input)).status).toBe("ok");
    expect(Object.keys(input)).toEqual(["query", "limit"]);
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect((input as { admin?: unknown }).admin).toBeUndefined();
  });

  it("uses a custom message", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      validate({ schemas: { web_search: zodSearch }, message: (f) => `bad ${f.toolName}: ${f.issues.length}` }),
    );
    expect((await hooks.invoke(search, {})).reason).toBe("bad web_search: 1");
  });

  it("the tool receives exactly what the schema parses (property)", async () => {
    const schema = z.object({ a: z.string().max(5), b: z.coerce.number().optional() });
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { web_search: schema } }));
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom("a", "b", "c"), fc.oneof(fc.string(), fc.integer())),
        async (raw) => {
          const input = { ...raw };
          const expected = schema.safeParse(raw);
          const out = await hooks.invoke(search, input);
          expect(out.status).toBe(expected.success ? "ok" : "blocked");
          if (expected.success) expect(input).toStrictEqual(expected.data);
          else expect(input).toStrictEqual({ ...raw });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("validate: formatting and options", () => {
  it("formats paths like code", () => {
    expect(formatPath(["a", 0, { key: "b" }, "c d", Symbol("s")])).toBe('a[0].b["c d"][Symbol(s)]');
    expect(formatPath([])).toBe("(input)");
    expect(formatIssues([{ message: "line1\nline2\u001b[31m" }], 5)).toBe("(input): line1 line2 [31m");
  });

  it.each([
    [null, /takes \{ schemas \}/],
    [{ schemas: {} }, /is empty/],
    [{ schemas: [] }, /must be an object/],
    [{ schemas: { x: {} } }, /not a Standard Schema/],
    [{ schemas: { "db_*": zodSearch } }, /exact tool names/],
    [{ schemas: { "Web Search": zodSearch, web_search: zodSearch } }, /two schemas/],
    [{ schemas: { x: zodSearch }, maxIssues: 0 }, /maxIssues/],
    [{ schemas: { x: zodSearch }, strict: true }, /unknown option `strict`/],
  ])("rejects %j", (options, error) => {
    expect(() => validate(options as never)).toThrow(TypeError);
    expect(() => validate(options as never)).toThrow(/^toolware\/validate: /);
    expect(() => validate(options as never)).toThrow(error);
  });
});
