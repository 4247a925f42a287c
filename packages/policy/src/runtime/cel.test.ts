import { ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CEL_LIMITS, compileCondition } from "./cel.js";
import { loadPolicy } from "./load.js";
import { projectArgs } from "./project.js";
import { loadedDoc, tool } from "./test-fixtures.js";

const facts = { tool: { name: "t", tags: [], destructive: false }, agent: "", crew: "", caller: "" };
const budget = { maxNodes: CEL_LIMITS.maxArgNodes, maxChars: CEL_LIMITS.maxArgChars, maxDepth: CEL_LIMITS.maxArgDepth };

describe("CEL conditions: bounded at load", () => {
  it("refuses what could cost more than linear time or is too big", () => {
    expect(() => compileCondition("args.a.all(x, args.b.exists(y, y == x))")).toThrow(/may not be nested/);
    expect(() => compileCondition('args.p.matches("(a+)+$")')).toThrow(/repeated group/);
    expect(() => compileCondition('args.p.matches("(a|aa)*b")')).toThrow(/repeated group/);
    expect(() => compileCondition('args.p.matches("(a)\\\\1")')).toThrow(/back-references/);
    expect(() => compileCondition("args.p.matches(args.q)")).toThrow(/string literal/);
    expect(() => compileCondition(`${"1 + ".repeat(600)}1 == 2`)).toThrow();
    expect(() => compileCondition(`"${"a".repeat(5000)}" == args.p`)).toThrow(/characters/);
    expect(() => compileCondition("nope == 1")).toThrow(/nope/);
    expect(() => compileCondition('"a" + "b"')).toThrow(/not a boolean/);
    expect(compileCondition('args.p.matches("^[a-z]+/[0-9]*$")').source).toContain("matches");
  });

  it("reads only the argument keys the expression names", () => {
    expect(compileCondition('args.path.contains("..") && has(args.mode)').keys).toEqual(["path", "mode"]);
    expect(compileCondition('args["path"] == "x"').keys).toEqual(["path"]);
    expect(compileCondition("size(args) > 3").keys).toBeUndefined();
    expect(compileCondition('"k" in args').keys).toBeUndefined();
  });
});

describe("CEL conditions: bounded per call", () => {
  it("refuses arguments over the budget, so the rule fails closed", () => {
    expect(() => projectArgs({ s: "x".repeat(CEL_LIMITS.maxArgChars + 1) }, undefined, budget)).toThrow(/characters/);
    let deep: unknown = "leaf";
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(() => projectArgs({ deep }, ["deep"], budget)).toThrow(/deeper/);
    expect(() => projectArgs({ l: Array.from({ length: 20_000 }, () => 1) }, ["l"], budget)).toThrow(/values/);
    const getter = Object.defineProperty({}, "p", { get: () => "x", enumerable: true });
    expect(() => projectArgs(getter, ["p"], budget)).toThrow(/getter/);
    // A key the expression does not name costs nothing, however big.
    expect(projectArgs({ p: "ok", huge: "x".repeat(5_000_000) }, ["p"], budget).p).toBe("ok");
    // Plain data is handed over as it is; anything else is copied as data.
    const plain = { p: "ok" };
    expect(projectArgs(plain, ["p"], budget)).toBe(plain);
    const dated = { p: new Date(0) };
    expect(projectArgs(dated, ["p"], budget)).not.toBe(dated);
  });

  it("treats __proto__ as an ordinary key, never as a prototype", () => {
    const hostile = JSON.parse('{"__proto__": {"admin": true}, "path": "a"}');
    const c = compileCondition("has(args.admin) && args.admin == true");
    expect(c.evaluate({ ...facts, args: hostile })).toBe(false);
    const whole = compileCondition('args["__proto__"].admin == true');
    expect(whole.evaluate({ ...facts, args: hostile })).toBe(true);
  });
});

describe("CEL conditions: hostile arguments never turn a deny into an allow (property)", () => {
  const hostileValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(
        fc.oneof(fc.string(), fc.constantFrom("__proto__", "constructor", "prototype", "path")),
        tie("value"),
        {
          maxKeys: 4,
        },
      ),
    ),
  })).value;

  it("a deny rule on path escapes denies every call whose path escapes, whatever else the arguments hold", async () => {
    const policy = await loadPolicy(
      loadedDoc(
        [
          {
            name: "no-escape",
            match: { tools: ["write_file"], when: 'args.path.contains("..")' },
            decide: "deny",
            reason: "escape",
          },
          { name: "writes", match: { tools: ["write_file"] }, decide: "allow" },
        ],
        { default: "deny" },
      ),
    );
    const hooks = new ToolHooks();
    hooks.use(policy);
    const write = tool("write_file");
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.string(),
        fc.dictionary(fc.string(), hostileValue, { maxKeys: 5 }),
        fc.oneof(fc.constant(0), fc.constant(200_000), fc.constant(1_100_000)),
        async (pre, post, extra, padding) => {
          const args = JSON.parse(JSON.stringify({ ...extra, path: `${pre}..${post}${"x".repeat(padding)}` }));
          const out = await hooks.invoke(write, args);
          expect(out.status).toBe("blocked");
        },
      ),
      { numRuns: 80 },
    );
  });

  it("a hostile path value (not a string, deep, huge, getters) is denied, never allowed", async () => {
    const policy = await loadPolicy(
      loadedDoc(
        [
          {
            name: "only-tmp",
            match: { tools: ["write_file"], when: 'args.path.startsWith("/tmp/")' },
            decide: "allow",
          },
        ],
        {
          default: "deny",
        },
      ),
    );
    const hooks = new ToolHooks();
    hooks.use(policy);
    await fc.assert(
      fc.asyncProperty(hostileValue, async (path) => {
        fc.pre(!(typeof path === "string" && path.startsWith("/tmp/")));
        const out = await hooks.invoke(tool("write_file"), { path } as Record<string, unknown>);
        expect(out.status).toBe("blocked");
      }),
      { numRuns: 150 },
    );
    let deep: unknown = "/tmp/x";
    for (let i = 0; i < 1000; i++) deep = [deep];
    expect((await hooks.invoke(tool("write_file"), { path: deep } as Record<string, unknown>)).status).toBe("blocked");
    const sneaky = Object.defineProperty({}, "path", { get: () => "/tmp/ok", enumerable: true });
    expect((await hooks.invoke(tool("write_file"), sneaky)).status).toBe("blocked");
  });
});
