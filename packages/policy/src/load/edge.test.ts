// The less travelled refusals, each through the public API, with the words a person acts on.
import { describe, expect, it } from "vitest";
import { checkPolicyObject, type PolicyLoadError, parsePolicyText } from "../index.js";

const HEAD = "version: 1\ndefault: deny\n";

function issues(f: () => unknown): PolicyLoadError["issues"] {
  try {
    f();
  } catch (error) {
    return (error as PolicyLoadError).issues;
  }
  throw new Error("expected a PolicyLoadError");
}
const fromYaml = (rules: string) => issues(() => parsePolicyText(`${HEAD}rules:\n${rules}`, { file: "p.yaml" }));
const rule = (body: Record<string, unknown>) => ({ version: 1, default: "deny", rules: [{ name: "r", ...body }] });
const fromObject = (body: Record<string, unknown>) => issues(() => checkPolicyObject(rule(body)));
const messages = (list: PolicyLoadError["issues"]) => list.map((i) => i.message);

describe("values out of range", () => {
  it("durations: zero, over the longest timer, not a number or string, spelt loosely", () => {
    expect(messages(fromObject({ packs: { "rate-limit": { max: 1, per: 0 } } }))).toEqual([
      "must be a positive duration, got 0",
    ]);
    expect(messages(fromObject({ packs: { "rate-limit": { max: 1, per: "30d" } } }))[0]).toMatch(
      /^must be at most 2147483647 ms/,
    );
    expect(messages(fromObject({ packs: { "rate-limit": { max: 1, per: true } } }))[0]).toMatch(/^must be a duration/);
    expect(fromObject({ packs: { "rate-limit": { max: 1, per: "2 Minutes" } } })[0]?.hint).toBe("2m");
    expect(fromObject({ packs: { "rate-limit": { max: 1, per: "10 msec" } } })[0]?.hint).toBe("10ms");
    expect(fromObject({ packs: { "rate-limit": { max: 1, per: "1fortnight" } } })[0]?.hint).toBeUndefined();
    expect(
      checkPolicyObject(rule({ packs: { retry: { minDelayMs: 0 } } })).document.rules[0]?.packs?.retry?.minDelayMs,
    ).toBe(0);
  });

  it("numbers that are not finite, strings too long, lists empty or too long", () => {
    expect(messages(fromYaml("  - name: r\n    packs: { retry: { factor: .inf } }\n"))).toEqual([
      "must be a number ≥ 1, got Infinity",
    ]);
    expect(messages(fromObject({ decide: "deny", reason: "x".repeat(5000) }))).toEqual([
      "must be at most 4096 characters long, got 5000",
    ]);
    expect(messages(fromObject({ decide: "deny", match: { tools: [] } }))).toEqual([
      "must not be empty (leave the key out instead)",
    ]);
    const many = Array.from({ length: 10_001 }, (_, i) => `t${i}`);
    expect(messages(fromObject({ decide: "deny", match: { tools: many } }))[0]).toMatch(
      /a list holds at most 10000 entries/,
    );
    const yamlMany = `  - name: r\n    decide: deny\n    match:\n      tools: [${many.join(",")}]\n`;
    expect(messages(fromYaml(yamlMany))).toEqual(["holds at most 10000 entries, got 10001"]);
  });

  it("kinds that do not fit: a map for a list, a list for a map, a string for a choice", () => {
    expect(messages(fromObject({ decide: "deny", match: { tools: "x" } }))).toEqual([
      'must be a list of tool names, got the string "x"',
    ]);
    expect(messages(fromObject({ packs: { timeout: { ms: { perTool: [1] } } } }))).toEqual([
      "must be a map of tool names, got a list",
    ]);
    expect(messages(fromObject({ packs: { timeout: { ms: [1] } } }))).toEqual([
      "must be a duration or { default, perTool }, got a list",
    ]);
    expect(messages(fromObject({ packs: { timeout: { ms: null } } }))).toEqual([
      "must be a duration or { default, perTool }, got null (nothing)",
    ]);
    expect(messages(fromObject({ packs: { "loop-guard": { maxRepeats: "3" } } }))).toEqual([
      'must be a whole number ≥ 2 or false, got the string "3"',
    ]);
    expect(messages(fromObject({ decide: "deny", match: [] }))).toEqual(["must be a map, got a list"]);
    expect(messages(fromObject({ decide: true }))).toEqual(["must be one of allow, deny, approve, got boolean true"]);
  });

  it("tool-name maps refuse empty and repeated names", () => {
    const ms = (perTool: string) => `  - name: r\n    packs: { timeout: { ms: { perTool: ${perTool} } } }\n`;
    expect(messages(fromYaml(ms('{ "": 1s }')))).toEqual(["keys are tool names, got an empty string"]);
    expect(messages(fromYaml(ms("{ 1: 1s }")))).toEqual(["keys are tool names, got the number 1"]);
    expect(messages(fromYaml(ms("{ a: 1s, a: 2s }")))).toEqual(["`a` is given twice"]);
    expect(messages(fromYaml(ms("{ a: soon }")))[0]).toMatch(/^must be a duration/);
  });

  it("cedar: both sources, both schemas, or none", () => {
    const cedar = (section: string) => issues(() => parsePolicyText(`${HEAD}rules: []\ncedar: ${section}\n`));
    expect(messages(cedar("{ file: a.cedar, schema: s, schemaFile: s.cedarschema }"))).toEqual([
      "give `schema` or `schemaFile`, not both",
    ]);
    expect(messages(cedar("{ schema: s }"))).toEqual(["the `cedar` section needs `policies` or `file`"]);
    expect(
      parsePolicyText(`${HEAD}rules: []\ncedar: { policies: "forbid(principal, action, resource);" }\n`).document.cedar,
    ).toEqual({
      policies: "forbid(principal, action, resource);",
    });
  });
});

describe("keys and values no policy holds", () => {
  it("odd keys are quoted in messages and paths, and complex keys refused", () => {
    const odd = issues(() => parsePolicyText(`${HEAD}rules: []\n"a b": 1\n? [x]\n: 1\n`));
    expect(messages(odd)[0]).toMatch(/^unknown key "a b"/);
    expect(messages(odd)[1]).toBe("keys are strings, got a list (put it in quotes)");
    const error = (() => {
      try {
        checkPolicyObject({ version: 1, default: "deny", rules: [], stores: { "x y": 1 } });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain('<inline>: stores: unknown key "x y"');
    const nested = issues(() =>
      checkPolicyObject({
        ...rule({}),
        rules: [{ name: "r", packs: { timeout: { ms: { perTool: { "a b": "x" } } } } }],
      }),
    );
    expect(nested[0]?.path).toEqual(["rules", 0, "packs", "timeout", "ms", "perTool", "a b"]);
  });

  it("values of code: undefined in a list, symbols, bigints, class instances, very deep objects", () => {
    expect(messages(fromObject({ decide: "deny", match: { tools: [undefined] } }))).toEqual([
      "must be a string, got undefined",
    ]);
    expect(messages(fromObject({ decide: "deny", reason: Symbol("x") }))).toEqual(["must be a string, got a symbol"]);
    expect(messages(fromObject({ decide: "deny", reason: new Date(0) }))).toEqual([
      "must be a string, got a Date (a policy holds plain data only)",
    ]);
    class Anonymous {}
    Object.defineProperty(Anonymous, "name", { value: "" });
    expect(messages(fromObject({ decide: "deny", match: new Anonymous() }))[0]).toMatch(
      /an object with a custom prototype/,
    );
    const trap = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error("trap");
        },
      },
    );
    expect(messages(fromObject({ decide: "deny", match: trap }))[0]).toMatch(/an object that cannot be inspected/);
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 100; i++) {
      deep.a = {};
      deep = deep.a as Record<string, unknown>;
    }
    expect(messages(fromObject({ decide: "deny", match: top }))).toEqual([
      "unknown key `a` (known keys: tools, tags, annotations, agents, crews, callers, when)",
    ]);
    const longList = new Array(20_000);
    expect(messages(fromObject({ decide: "deny", match: { tools: longList } }))[0]).toMatch(/a list of 20000 entries/);
    const wide = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, 1]));
    expect(messages(fromObject({ decide: "deny", match: wide }))[0]).toMatch(/a map of 10001 keys/);
  });

  it("YAML values of other types and explicit tags", () => {
    expect(messages(fromYaml("  - name: r\n    decide: deny\n    reason: !!binary aGVsbG8=\n"))).toEqual([
      "must be a string, got binary data (!!binary) (write a string, a number or a boolean)",
    ]);
    expect(messages(fromYaml("  - name: r\n    decide: deny\n    description: !!timestamp 2001-12-14\n"))[0]).toMatch(
      /got a timestamp/,
    );
    expect(messages(fromYaml("  - name: r\n    decide: deny\n    reason: !custom x\n"))[0]).toMatch(
      /Unresolved tag: !custom/,
    );
    const tagged = parsePolicyText(`${HEAD}rules:\n  - name: r\n    decide: !!str deny\n    reason: !!str 12\n`);
    expect(tagged.document.rules[0]).toEqual({ name: "r", decide: "deny", reason: "12" });
  });

  it("refuses bad arguments to the functions themselves", () => {
    expect(() => parsePolicyText("", null as never)).toThrow(
      expect.objectContaining({ code: "TOOLWARE_INVALID_OPTION" }),
    );
    expect(() => parsePolicyText("", { file: "" })).toThrow(/`file` must be a non-empty string/);
    expect(() => parsePolicyText("", { colour: 1 } as never)).toThrow(
      /unknown option "colour" \(expected one of: file, format\)/,
    );
    expect(() => checkPolicyObject({}, "" as string)).toThrow(/`file` must be a non-empty string/);
  });
});
